package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The requests in flight, and how many of them are streamed (the silence watch's count). */
class OpenRequestsTest {

  /** A request that records its cut. */
  private static final class Request implements OpenRequests.Open {
    final boolean streamed;
    final List<String> cuts = new ArrayList<>();

    Request(boolean streamed) {
      this.streamed = streamed;
    }

    @Override
    public boolean cutByRunEnd(long endNanos, String reason) {
      cuts.add(reason);
      return true;
    }

    @Override
    public boolean streamed() {
      return streamed;
    }
  }

  @Test
  void onlyStreamedRequestsAreCountedAsStreamed() {
    OpenRequests open = new OpenRequests();
    open.add(new Request(true));
    open.add(new Request(false));
    open.add(new Request(true));
    assertEquals(3, open.size());
    assertEquals(2, open.streamed());
  }

  @Test
  void aRequestRemovedTwiceIsCountedOutOnce() {
    OpenRequests open = new OpenRequests();
    Request a = new Request(true);
    open.add(a);
    open.add(new Request(true));
    open.remove(a);
    open.remove(a);
    assertEquals(1, open.streamed());
  }

  @Test
  void cutRequestsAreInFlightNoMore() {
    OpenRequests open = new OpenRequests();
    Request a = new Request(true);
    open.add(a);
    open.add(new Request(false));
    assertEquals(2, open.cutAll(0, "target_silent"));
    assertEquals(List.of("target_silent"), a.cuts);
    assertEquals(0, open.size());
    assertEquals(0, open.streamed());
  }
}
