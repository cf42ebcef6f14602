package io.github.gatlingllm.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ItlListTest {

  @Test
  void holdsTheFirstCountValuesInOrder() {
    ItlList list = ItlList.of(new double[] {0.25, 1.5, 3.0, 99.0}, 3);
    assertEquals(3, list.size());
    assertEquals(0.25, list.at(0));
    assertEquals(Double.valueOf(1.5), list.get(1));
    assertEquals(3.0, list.at(2));
  }

  @Test
  void isEqualToAnyListOfTheSameValuesAndHashesAlike() {
    ItlList list = ItlList.of(new double[] {0.25, 1.5}, 2);
    assertEquals(List.of(0.25, 1.5), list);
    assertEquals(list, List.of(0.25, 1.5));
    assertEquals(List.of(0.25, 1.5).hashCode(), list.hashCode());
  }

  @Test
  void copiesTheArraySoLaterWritesDoNotShow() {
    double[] values = {1.0, 2.0};
    ItlList list = ItlList.of(values, 2);
    values[0] = 7.0;
    assertEquals(List.of(1.0, 2.0), list);
  }

  @Test
  void copyOfAnItlListIsTheListItself() {
    ItlList list = ItlList.of(new double[] {1.0}, 1);
    assertSame(list, ItlList.copyOf(list));
  }

  @Test
  void copyOfAnotherListCopiesItsValues() {
    assertEquals(List.of(4.0, 5.5), ItlList.copyOf(Arrays.asList(4.0, 5.5)));
  }

  @Test
  void copyOfAListWithANullValueThrows() {
    assertThrows(NullPointerException.class, () -> ItlList.copyOf(Arrays.asList(1.0, null)));
  }

  @Test
  void noCountIsTheEmptyList() {
    assertEquals(List.of(), ItlList.of(new double[4], 0));
  }

  @Test
  void isUnmodifiable() {
    ItlList list = ItlList.of(new double[] {1.0}, 1);
    assertThrows(UnsupportedOperationException.class, () -> list.add(2.0));
    assertThrows(UnsupportedOperationException.class, () -> list.set(0, 2.0));
  }

  @Test
  void aRecordRefusesANegativeValueNamingTheField() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                RequestRecord.builder()
                    .request("chat")
                    .startMs(1L)
                    .status(RequestStatus.OK)
                    .itlMs(ItlList.of(new double[] {1.0, -2.0}, 2))
                    .build());
    assertEquals("itl_ms must be a finite number >= 0 or null, got -2.0", e.getMessage());
  }
}
