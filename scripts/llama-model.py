#!/usr/bin/env python3
"""Writes a llama-architecture GGUF model with random weights and a real Hugging Face vocabulary.

The engine that serves it (llama.cpp) does all its real work on it: tokenizer, chat template, KV
cache, prefix cache, batching, sampling. Only the weights are random (seeded normal, std 0.02), so
the generated text is meaningless and a request runs to max_tokens when EOS is ignored.

With --tool-call it writes a crafted model instead (same vocabulary and chat template): its weights
make greedy and sampled decoding alike answer every chat turn with one fixed tool call, so that a
real engine's tool-call template, grammar and parser can be exercised by a model that cannot think.
See tool_call_model() for how.

With --mmproj it writes a multimodal projector for such a model instead (llama-server --mmproj):
a LLaVA-1.5-style file (projector type "mlp") of random weights, seeded: a small CLIP vision tower
(224 px images, 14 px patches, so 256 image tokens an image whatever its size) and a two-layer MLP
whose output size is the text model's --dim. See mmproj_model() for its shapes.

Usage: llama-model.py --tokenizer DIR --out FILE [--dim 256 --layers 4 --heads 4 --ff 768
                      --context 8192 --type q8_0|f16 --seed 0] [--tool-call]
       llama-model.py --mmproj --out FILE [--dim 256 --vision-dim 128 --vision-layers 2
                      --vision-heads 4 --vision-ff 512 --image-size 224 --patch-size 14 --seed 0]
DIR holds tokenizer.json (a byte-level BPE model, as Qwen's) and tokenizer_config.json (the chat
template, eos/pad/bos tokens). Needs numpy and the gguf package (python3-gguf) on PYTHONPATH.
"""

import argparse
import json
import os
import sys

import numpy as np

try:
    import gguf
    from gguf import quants
except ImportError as e:  # the caller names the step; say what is missing
    sys.exit(f"llama-model.py: cannot import gguf ({e}); put python3-gguf's dist-packages on PYTHONPATH")


def token_content(value):
    """tokenizer_config.json names a token as a string or as {"content": ...}."""
    if isinstance(value, dict):
        return value.get("content")
    return value


def vocabulary(tokenizer):
    """Token strings, token types and merges of a byte-level BPE tokenizer.json."""
    model = tokenizer["model"]
    if model.get("type") != "BPE":
        sys.exit(f"llama-model.py: tokenizer.json model type {model.get('type')!r}, expected BPE")
    by_id = {i: t for t, i in model["vocab"].items()}
    types = {i: gguf.TokenType.NORMAL for i in by_id}
    for added in tokenizer.get("added_tokens", []):
        by_id[added["id"]] = added["content"]
        types[added["id"]] = (
            gguf.TokenType.CONTROL if added.get("special") else gguf.TokenType.USER_DEFINED
        )
    size = max(by_id) + 1
    tokens, token_types = [], []
    for i in range(size):
        if i in by_id:
            tokens.append(by_id[i])
            token_types.append(types[i])
        else:
            tokens.append(f"[PAD{i}]")
            token_types.append(gguf.TokenType.UNUSED)
    merges = [m if isinstance(m, str) else " ".join(m) for m in model.get("merges", [])]
    return tokens, token_types, merges


# What the --tool-call model says after "<|im_start|>assistant\n", token by token: the Qwen3 chat
# template's rendering of the assistant message {"tool_calls": [{"function": {"name":
# "fetch_orders_0", "arguments": {"unit": 7}}}]}, as the Qwen3 tokenizer splits it (checked with
# llama-server's /tokenize), then <|im_end|>. Sent back in the next turn, the call renders to the
# same text and the same tokens, so the server's prefix cache covers the previous prompt and reply.
# fetch_orders_0 is the first tool of agents().tools(n, ...) for seed 7 and case id "llamatools"
# (prompt/ToolCatalog); its one required parameter "unit" is an integer from 1 to 100.
TOOL_CALL_CONTEXT = ["<|im_start|>", "assistant", "\n"]
# (Written as JSON: ToolCallModelTest reads this list and checks it against the catalog and tokenizer.)
TOOL_CALL_REPLY = ["<tool_call>", "\n", "{\"", "name", "\":", " \"", "fetch", "_orders", "_", "0",
                   "\",", " \"", "arguments", "\":", " {\"", "unit", "\":", " ", "7", "}}\n",
                   "</tool_call>", "<|im_end|>"]


def byte_level(text):
    """A text as a byte-level BPE vocabulary spells it (GPT-2's bytes_to_unicode)."""
    printable = (list(range(ord("!"), ord("~") + 1)) + list(range(ord("\u00a1"), ord("\u00ac") + 1))
                 + list(range(ord("\u00ae"), ord("\u00ff") + 1)))
    table, extra = {}, 0
    for b in range(256):
        if b in printable:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + extra)
            extra += 1
    return "".join(table[b] for b in text.encode("utf-8"))


def tool_call_model(a, w, ids, tokens):
    """Writes the weights of a model that answers every chat turn with TOOL_CALL_REPLY.

    A "trigram machine" of one layer. Each token of the reply is predicted from the last two tokens:
    the last one through its embedding (the residual stream), the one before through one attention
    head that looks exactly one position back. Embeddings: every token has 1 in dimension 0 (a
    constant the attention reads); each token of the context and reply has 1 in a dimension of its
    own (block A), every other token 1 in one shared dimension, so all embeddings have one norm.
    The head's query and key read only dimension 0, so they are the same at every position; RoPE then
    makes their product a function of the distance alone, cos(theta_f * (d - 1)) summed over the
    frequencies, largest at d = 1 by a margin of `gap` logits over every other distance up to the
    context size; its value copies block A into block B (the previous token). The feed-forward
    output is zero. The output head gives the next token of each (previous, last) pair `margin`
    logits for each of the two that matches; every other token gets 0. The pairs must be distinct
    and no other reply token may match both: checked here, the writer fails otherwise.
    """
    context, reply = TOOL_CALL_CONTEXT, TOOL_CALL_REPLY
    seq = []
    for piece in context + reply:
        key = piece if piece in ids else byte_level(piece)
        if key not in ids:
            sys.exit(f"llama-model.py: --tool-call: the vocabulary has no token {piece!r}")
        seq.append(ids[key])
    distinct = sorted(set(seq))
    slot = {t: i for i, t in enumerate(distinct)}
    dim, heads = a.dim, a.heads
    head_dim = dim // heads
    n = len(distinct)
    if 2 + 2 * n > dim or n > head_dim or head_dim % 2:
        sys.exit(f"llama-model.py: --tool-call needs --dim >= {2 + 2 * n} and --dim/--heads >= {n}, even")
    other, a0, b0 = 1, 2, 2 + n  # dimension 0: constant; 1: any other token; A and B blocks
    # (previous, last) -> next, for each token of the reply
    steps = {}
    for i in range(len(context) - 1, len(seq) - 1):
        pair = (seq[i - 1], seq[i])
        if pair in steps and steps[pair] != seq[i + 1]:
            sys.exit(f"llama-model.py: --tool-call: the pair {[tokens[t] for t in pair]} is followed"
                     f" by two tokens; a trigram machine cannot say this reply")
        steps[pair] = seq[i + 1]
    targets = {}
    for (prev, last), nxt in steps.items():
        targets.setdefault(nxt, set()).update({("A", last), ("B", prev)})
    for (prev, last), nxt in steps.items():
        for y, feats in targets.items():
            if y != nxt and ("A", last) in feats and ("B", prev) in feats:
                sys.exit(f"llama-model.py: --tool-call: after {[tokens[prev], tokens[last]]}"
                         f" {tokens[y]!r} would tie with {tokens[nxt]!r}")

    def f32(name, data):
        w.add_tensor(name, np.ascontiguousarray(data, dtype=np.float32))

    def q8(name, data):
        w.add_tensor(name, quants.quantize(np.ascontiguousarray(data, dtype=np.float32),
                                           gguf.GGMLQuantizationType.Q8_0),
                     raw_dtype=gguf.GGMLQuantizationType.Q8_0)

    vocab = len(tokens)
    embd = np.zeros((vocab, dim), dtype=np.float32)
    embd[:, 0] = 1.0
    embd[:, other] = 1.0
    for t, i in slot.items():
        embd[t, other] = 0.0
        embd[t, a0 + i] = 1.0
    q8("token_embd.weight", embd)
    del embd

    # RMS norm of an embedding (two ones in `dim` dimensions): each one becomes sqrt(dim / 2).
    h0 = np.sqrt(dim / 2.0)
    theta = a.rope_base ** (-np.arange(head_dim // 2) * 2.0 / head_dim)
    distance = np.arange(0, a.context + 1)
    kernel = np.cos(np.outer(distance - 1, theta)).sum(axis=1)
    unit_gap = kernel[1] - np.delete(kernel, 1).max()  # per unit of amplitude, before the scale
    gap = 24.0  # logits between the previous position and any other: leak < context * e^-24
    amplitude = gap * np.sqrt(head_dim) / unit_gap  # q . k per frequency, at d = 1
    wq = np.zeros((dim, dim), dtype=np.float32)
    wk = np.zeros((dim, dim), dtype=np.float32)
    per = np.sqrt(amplitude) / h0
    for f, th in enumerate(theta):
        # query (per, 0); key per * (cos th, sin th): after RoPE their product is cos(th * (d - 1))
        wq[2 * f, 0] = per
        wk[2 * f, 0] = per * np.cos(th)
        wk[2 * f + 1, 0] = per * np.sin(th)
    wv = np.zeros((dim, dim), dtype=np.float32)
    wo = np.zeros((dim, dim), dtype=np.float32)
    for i in range(n):
        wv[i, a0 + i] = 1.0 / h0  # head 0's value: the attended token's A block, as ones
        wo[b0 + i, i] = 1.0  # into the B block
    layer = 0
    w.add_tensor(f"blk.{layer}.attn_norm.weight", np.ones(dim, dtype=np.float32))
    f32(f"blk.{layer}.attn_q.weight", wq)
    f32(f"blk.{layer}.attn_k.weight", wk)
    f32(f"blk.{layer}.attn_v.weight", wv)
    f32(f"blk.{layer}.attn_output.weight", wo)
    w.add_tensor(f"blk.{layer}.ffn_norm.weight", np.ones(dim, dtype=np.float32))
    zeros = np.zeros((a.ff, dim), dtype=np.float32)
    q8(f"blk.{layer}.ffn_gate.weight", zeros)
    q8(f"blk.{layer}.ffn_up.weight", zeros)
    q8(f"blk.{layer}.ffn_down.weight", np.zeros((dim, a.ff), dtype=np.float32))
    w.add_tensor("output_norm.weight", np.ones(dim, dtype=np.float32))
    # After the layer the residual holds three ones (constant, last, previous): normed, each is
    # sqrt(dim / 3); a matching feature adds margin logits.
    margin = 40.0
    weight = margin / np.sqrt(dim / 3.0)
    out = np.zeros((vocab, dim), dtype=np.float32)
    for y, feats in targets.items():
        for block, t in feats:
            out[y, (a0 if block == "A" else b0) + slot[t]] = weight
    q8("output.weight", out)
    text = "".join(tokens[t] for t in seq[len(context):])
    print(f"model: tool-call reply of {len(reply)} tokens ({n} distinct with the context),"
          f" attention gap {gap:.0f} logits (rope base {a.rope_base:g}, unit gap {unit_gap:.3f}),"
          f" margin {margin:.0f} logits: {text!r}")


def mmproj_model(a):
    """Writes a LLaVA-1.5-style multimodal projector (llama.cpp's clip "mlp" type), random weights.

    What llama.cpp's mtmd/clip loader asks of this type (tools/mtmd/clip.cpp, clip-impl.h; the
    keys below are all it requires) and what its graph (tools/mtmd/models/llava.cpp) does with it:
    an image is resized and padded to image_size x image_size (fixed-size preprocessing, no tiles:
    no clip.vision.image_grid_pinpoints), cut into patches by a convolution (v.patch_embd, no
    class embedding, so every patch is an output token), given learned position embeddings, a
    pre-layernorm and the vision tower's layers up to the penultimate (as LLaVA takes its features),
    then projected by mm.0 (linear), GELU, mm.2 (linear) to the text model's embedding size. So an
    image is (image_size / patch_size)^2 tokens, 256 for 224 and 14, whatever its own size, and
    the server refuses the file unless mm.2's output size equals the text model's n_embd.

    GGUF shapes are numpy's reversed (ggml's ne[0] is numpy's last axis). Matrices and the patch
    kernel are F16 as llama.cpp's converter writes them; norms, biases and position embeddings F32.
    Weights: seeded normal, std 0.02; norms 1, biases 0.
    """
    if a.image_size % a.patch_size:
        sys.exit(f"llama-model.py: --image-size {a.image_size} is not a multiple of --patch-size {a.patch_size}")
    if a.vision_dim % a.vision_heads:
        sys.exit(f"llama-model.py: --vision-dim {a.vision_dim} is not a multiple of --vision-heads {a.vision_heads}")
    if a.vision_ff == a.vision_dim:
        # llama.cpp swaps ffn_up and ffn_down of old LLaVA files when ffn_down's ne[0] is n_embd
        sys.exit("llama-model.py: --vision-ff must differ from --vision-dim (llama.cpp's legacy ffn swap)")
    if a.vision_layers < 2:
        sys.exit("llama-model.py: --vision-layers must be >= 2 (LLaVA takes the penultimate layer)")
    rng = np.random.default_rng(a.seed)
    d, ff, out = a.vision_dim, a.vision_ff, a.dim
    n_patches = (a.image_size // a.patch_size) ** 2

    w = gguf.GGUFWriter(a.out + ".tmp", "clip")
    w.add_name(a.name or "random-llava-mlp-projector")
    w.add_description("random weights (seed %d): a LLaVA-style projector (mlp) of a tiny CLIP vision"
                      " tower, %d image tokens, output size %d" % (a.seed, n_patches, out))
    w.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    w.add_clip_has_vision_encoder(True)
    w.add_clip_projector_type("mlp")
    w.add_vision_image_size(a.image_size)
    w.add_vision_patch_size(a.patch_size)
    w.add_vision_embedding_length(d)
    w.add_vision_feed_forward_length(ff)
    w.add_vision_block_count(a.vision_layers)
    w.add_vision_projection_dim(out)
    w.add_vision_head_count(a.vision_heads)
    w.add_vision_attention_layernorm_eps(1e-5)
    # CLIP's (OpenAI) normalisation, as LLaVA-1.5's image processor has it
    w.add_vision_image_mean([0.48145466, 0.4578275, 0.40821073])
    w.add_vision_image_std([0.26862954, 0.26130258, 0.27577711])
    w.add_vision_use_gelu(False)  # quick GELU, as CLIP

    def f16(name, *shape):
        w.add_tensor(name, rng.normal(0.0, 0.02, size=shape).astype(np.float16))

    def f32(name, *shape):
        w.add_tensor(name, rng.normal(0.0, 0.02, size=shape).astype(np.float32))

    def norm(prefix, size):
        w.add_tensor(prefix + ".weight", np.ones(size, dtype=np.float32))
        w.add_tensor(prefix + ".bias", np.zeros(size, dtype=np.float32))

    def bias(name, size):
        w.add_tensor(name, np.zeros(size, dtype=np.float32))

    f16("v.patch_embd.weight", d, 3, a.patch_size, a.patch_size)  # ne: patch, patch, 3, d
    bias("v.patch_embd.bias", d)
    f32("v.position_embd.weight", n_patches, d)  # ne: d, positions
    norm("v.pre_ln", d)
    for i in range(a.vision_layers):
        norm(f"v.blk.{i}.ln1", d)
        for t in ("attn_q", "attn_k", "attn_v", "attn_out"):
            f16(f"v.blk.{i}.{t}.weight", d, d)
            bias(f"v.blk.{i}.{t}.bias", d)
        norm(f"v.blk.{i}.ln2", d)
        f16(f"v.blk.{i}.ffn_up.weight", ff, d)  # ne: d, ff
        bias(f"v.blk.{i}.ffn_up.bias", ff)
        f16(f"v.blk.{i}.ffn_down.weight", d, ff)  # ne: ff, d
        bias(f"v.blk.{i}.ffn_down.bias", d)
    f16("mm.0.weight", out, d)  # ne: d, out
    bias("mm.0.bias", out)
    f16("mm.2.weight", out, out)  # ne: out, out (its ne[1] is the text model's n_embd)
    bias("mm.2.bias", out)
    finish(w, a)
    params = d * 3 * a.patch_size ** 2 + n_patches * d + a.vision_layers * (4 * d * d + 2 * d * ff) \
        + d * out + out * out
    print(f"mmproj: {a.out}: clip mlp projector, {params / 1e6:.2f}M parameters, image"
          f" {a.image_size} px, patch {a.patch_size} px, {n_patches} tokens an image, output {out}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tokenizer", help="required but with --mmproj")
    p.add_argument("--out", required=True)
    p.add_argument("--dim", type=int, default=256)
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--ff", type=int, default=768)
    p.add_argument("--context", type=int, default=8192)
    p.add_argument("--type", choices=["q8_0", "f16"], default="q8_0")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--name", default=None)
    p.add_argument("--tool-call", action="store_true",
                   help="write the crafted tool-call model (one layer) instead of random weights")
    p.add_argument("--rope-base", type=float, default=None)
    p.add_argument("--mmproj", action="store_true",
                   help="write a multimodal projector (llama-server --mmproj) for a model of --dim")
    p.add_argument("--vision-dim", type=int, default=128)
    p.add_argument("--vision-layers", type=int, default=2)
    p.add_argument("--vision-heads", type=int, default=4)
    p.add_argument("--vision-ff", type=int, default=512)
    p.add_argument("--image-size", type=int, default=224)
    p.add_argument("--patch-size", type=int, default=14)
    a = p.parse_args()
    if a.mmproj:
        mmproj_model(a)
        return
    if a.tokenizer is None:
        p.error("--tokenizer is required (but with --mmproj)")
    if a.name is None:
        a.name = "tool-call-llama-qwen3-vocab" if a.tool_call else "random-llama-qwen3-vocab"
    if a.rope_base is None:
        a.rope_base = 100.0 if a.tool_call else 1_000_000.0
    if a.tool_call:
        a.layers = 1
    if a.dim % a.heads != 0:
        sys.exit(f"llama-model.py: --dim {a.dim} is not a multiple of --heads {a.heads}")
    if a.type == "q8_0" and (a.dim % 32 or a.ff % 32):
        sys.exit("llama-model.py: q8_0 needs --dim and --ff to be multiples of 32")

    with open(os.path.join(a.tokenizer, "tokenizer.json"), encoding="utf-8") as f:
        tokenizer = json.load(f)
    with open(os.path.join(a.tokenizer, "tokenizer_config.json"), encoding="utf-8") as f:
        config = json.load(f)
    tokens, token_types, merges = vocabulary(tokenizer)
    ids = {t: i for i, t in enumerate(tokens)}

    def token_id(key):
        content = token_content(config.get(key))
        return ids.get(content) if content is not None else None

    eos, pad, bos = token_id("eos_token"), token_id("pad_token"), token_id("bos_token")
    if eos is None:
        sys.exit("llama-model.py: tokenizer_config.json names no eos_token found in the vocabulary")

    w = gguf.GGUFWriter(a.out + ".tmp", "llama")
    w.add_name(a.name)
    if a.tool_call:
        w.add_description("crafted weights: every chat turn answers one fixed tool call; vocabulary"
                          " of %s" % a.tokenizer)
    else:
        w.add_description("random weights (seed %d), vocabulary of %s" % (a.seed, a.tokenizer))
    w.add_context_length(a.context)
    w.add_embedding_length(a.dim)
    w.add_block_count(a.layers)
    w.add_feed_forward_length(a.ff)
    w.add_head_count(a.heads)
    w.add_head_count_kv(a.heads)
    w.add_rope_dimension_count(a.dim // a.heads)
    w.add_rope_freq_base(a.rope_base)
    w.add_layer_norm_rms_eps(1e-6)
    w.add_vocab_size(len(tokens))
    w.add_file_type(gguf.LlamaFileType.MOSTLY_Q8_0 if a.type == "q8_0" else gguf.LlamaFileType.MOSTLY_F16)

    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("qwen2")
    w.add_token_list(tokens)
    w.add_token_types(token_types)
    w.add_token_merges(merges)
    w.add_eos_token_id(eos)
    # Qwen has no BOS: llama.cpp must not add one (its <|endoftext|> stands in as the id).
    w.add_bos_token_id(bos if bos is not None else (pad if pad is not None else eos))
    w.add_add_bos_token(bool(config.get("add_bos_token", False)))
    if pad is not None:
        w.add_pad_token_id(pad)
    if config.get("chat_template"):
        w.add_chat_template(config["chat_template"])

    if a.tool_call:
        tool_call_model(a, w, ids, tokens)
        finish(w, a)
        return

    rng = np.random.default_rng(a.seed)

    def matrix(name, rows, cols):
        data = rng.normal(0.0, 0.02, size=(rows, cols)).astype(np.float32)
        if a.type == "q8_0":
            w.add_tensor(name, quants.quantize(data, gguf.GGMLQuantizationType.Q8_0),
                         raw_dtype=gguf.GGMLQuantizationType.Q8_0)
        else:
            w.add_tensor(name, data.astype(np.float16))

    def norm(name, size):
        w.add_tensor(name, np.ones(size, dtype=np.float32))

    # GGUF dimensions are numpy's reversed: token_embd is n_embd x n_vocab, ffn_down n_ff x n_embd.
    matrix("token_embd.weight", len(tokens), a.dim)
    for i in range(a.layers):
        norm(f"blk.{i}.attn_norm.weight", a.dim)
        for t in ("attn_q", "attn_k", "attn_v", "attn_output"):
            matrix(f"blk.{i}.{t}.weight", a.dim, a.dim)
        norm(f"blk.{i}.ffn_norm.weight", a.dim)
        matrix(f"blk.{i}.ffn_gate.weight", a.ff, a.dim)
        matrix(f"blk.{i}.ffn_up.weight", a.ff, a.dim)
        matrix(f"blk.{i}.ffn_down.weight", a.dim, a.ff)
    norm("output_norm.weight", a.dim)
    # No output.weight: llama.cpp ties the output head to token_embd.
    finish(w, a)
    params = len(tokens) * a.dim + a.layers * (4 * a.dim * a.dim + 3 * a.dim * a.ff)
    print(f"model: {a.out}: llama, {params / 1e6:.1f}M parameters, vocabulary {len(tokens)}, {a.type}")


def finish(w, a):
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    os.replace(a.out + ".tmp", a.out)


if __name__ == "__main__":
    main()
