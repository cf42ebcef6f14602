package io.github.gatlingllm.simulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.channel.ChannelHandlerContext;

/**
 * One reply on the Responses or the Messages API, in that API's events (streamed) or body (not
 * streamed): the chat and completions shapes stay in {@link Exchange}. Used from the exchange's
 * event loop only.
 */
interface ApiReply {

  /**
   * One planned chunk: written as the API's delta event when streaming (opening the reasoning or
   * answer part first when the phase changes), kept for the body and the stored reply either way.
   */
  void chunk(ChannelHandlerContext ctx, boolean reasoning, String text);

  /** The end of a streamed reply: its closing events and its usage, not flushed. */
  void finish(ChannelHandlerContext ctx, boolean length, int outputTokens, int reasoningTokens);

  /** The body of a non-streamed reply. */
  ObjectNode body(boolean length, int outputTokens, int reasoningTokens);

  /** The answer text so far (reasoning left out): the reply a later request's context holds. */
  String answer();

  /**
   * One piece of a tool-call reply, in this API's events: the head of call {@code call} (its id and
   * name, empty arguments: a Responses {@code function_call} item, a Messages {@code tool_use}
   * block) or a piece of its arguments. Kept for the whole reply either way.
   *
   * @param ctx the channel
   * @param call the call's index in the reply, from 0
   * @param id the call's id
   * @param name the function's name
   * @param head whether this is the call's head rather than a piece of its arguments
   * @param arguments the piece of the arguments; empty for a head
   */
  void toolPiece(
      ChannelHandlerContext ctx, int call, String id, String name, boolean head, String arguments);
}
