package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.core.JsonFactory;
import io.github.gatlingllm.metrics.RequestRecord;
import java.lang.reflect.RecordComponent;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The record's field list is written out by hand in three places besides Jackson's tree ({@link
 * RequestRecordJson#toJson}'s line writer, {@link RequestRecordReader}, {@link
 * RequestRecordJson#fromJson}): a field added to {@link RequestRecord} and forgotten in one of them
 * fails here instead of vanishing from a run's records.
 */
class RecordFieldsTest {

  private static final RequestRecord EVERY = EveryField.record("x", List.of(1.5, 0.25));

  @Test
  void theFixtureSetsEveryFieldOfTheRecord() throws ReflectiveOperationException {
    for (RecordComponent c : RequestRecord.class.getRecordComponents()) {
      assertNotNull(
          c.getAccessor().invoke(EVERY),
          c.getName()
              + " is not set in EveryField.record: set it there, then check the writer and"
              + " readers");
    }
  }

  @Test
  void theLineWriterWritesEveryFieldAsJacksonDoes() {
    assertEquals(
        RequestRecordJson.toJsonWithJackson(EVERY, true), RequestRecordJson.toJson(EVERY, true));
  }

  @Test
  void theTreeReadsEveryFieldBack() {
    assertEquals(EVERY, RequestRecordJson.fromJson(RequestRecordJson.toJson(EVERY, true)));
  }

  @Test
  void theStreamingReaderReadsEveryFieldAsTheTreeDoes() {
    String line = RequestRecordJson.toJson(EVERY, true);
    assertEquals(
        RequestRecordJson.fromJson(line), new RequestRecordReader(new JsonFactory()).read(line));
  }
}
