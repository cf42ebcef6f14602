package io.github.gatlingllm.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EventTemplateTest {

  private static String render(EventTemplate template, String value) {
    ByteBuf buf = template.render(UnpooledByteBufAllocator.DEFAULT, value);
    try {
      return buf.toString(StandardCharsets.UTF_8);
    } finally {
      buf.release();
    }
  }

  /** The event as serializing the whole tree gives it. */
  private static String whole(ObjectNode event) {
    return "data: " + new String(Responses.bytes(event), StandardCharsets.UTF_8) + "\n\n";
  }

  @Test
  void chatChunkEqualsTheWholeTreeSerialized() {
    EventTemplate template =
        EventTemplate.of(
            OpenAiJson.chatChunk(
                "chatcmpl-1", 7, "m", OpenAiJson.contentDelta(EventTemplate.SLOT), null));
    String text = " quote\" backslash\\ newline\n tab\t nul\u0000 é 日本 🚀";
    assertEquals(
        whole(OpenAiJson.chatChunk("chatcmpl-1", 7, "m", OpenAiJson.contentDelta(text), null)),
        render(template, text));
  }

  @Test
  void completionChunkEqualsTheWholeTreeSerialized() {
    EventTemplate template =
        EventTemplate.of(
            OpenAiJson.completionChunk("cmpl-1", 7, "m", EventTemplate.SLOT, null, null));
    assertEquals(
        "data: {\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"created\":7,\"model\":\"m\","
            + "\"choices\":[{\"index\":0,\"text\":\" model\",\"logprobs\":null,"
            + "\"finish_reason\":null}]}\n\n",
        render(template, " model"));
  }

  @Test
  void eventWithoutTheSlotIsRejected() {
    assertThrows(
        IllegalArgumentException.class,
        () -> EventTemplate.of(OpenAiJson.completionChunk("cmpl-1", 7, "m", "x", null, null)));
  }
}
