package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code saveReplyAs} and its siblings in a real Gatling run, chaining a second request. */
@Tag("forked")
@Tag("parallel")
class ReplySavesRunsTest {

  @TempDir Path results;

  @Test
  void theSavedReplyIsInTheSessionAndTheFollowUpIsSentOnIt() throws Exception {
    DslRun run = DslRun.run(ReplyChainSimulation.class, results).exits(0);

    List<String[]> saved = new ArrayList<>();
    List<String> followUps = new ArrayList<>();
    for (String line : run.log.split("\n")) {
      if (line.startsWith("SAVED|")) {
        saved.add(line.split("\\|", -1));
      } else if (line.startsWith("FOLLOW-UP|")) {
        followUps.add(line.substring("FOLLOW-UP|".length()));
      }
    }
    assertEquals(3, saved.size(), run.log);
    List<JsonNode> asks = new ArrayList<>();
    for (JsonNode r : run.requests()) {
      assertEquals("ok", r.get("status").asText(), r.toString());
      if (r.get("request").asText().equals("ask")) {
        asks.add(r);
      }
    }
    assertEquals(3, asks.size());
    for (String[] s : saved) {
      assertFalse(s[1].isEmpty() || s[1].equals("null"), String.join("|", s));
      assertEquals("length", s[2], String.join("|", s));
      assertEquals(asks.get(0).get("prompt_tokens").asText(), s[3], String.join("|", s));
      assertEquals("6", s[4], String.join("|", s));
    }
    List<String> expected = new ArrayList<>();
    for (String[] s : saved) {
      expected.add("Go on from: " + s[1]);
    }
    expected.sort(null);
    followUps.sort(null);
    assertEquals(expected, followUps);
    assertEquals(6, run.requests().size());
    assertEquals(0, run.count("[ERROR]"), run.log);
  }
}
