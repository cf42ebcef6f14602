#!/usr/bin/env python3
"""Writes a llama-architecture GGUF model with random weights and a real Hugging Face vocabulary.

The engine that serves it (llama.cpp) does all its real work on it: tokenizer, chat template, KV
cache, prefix cache, batching, sampling. Only the weights are random (seeded normal, std 0.02), so
the generated text is meaningless and a request runs to max_tokens when EOS is ignored.

Usage: llama-model.py --tokenizer DIR --out FILE [--dim 256 --layers 4 --heads 4 --ff 768
                      --context 8192 --type q8_0|f16 --seed 0]
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


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tokenizer", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--dim", type=int, default=256)
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--ff", type=int, default=768)
    p.add_argument("--context", type=int, default=8192)
    p.add_argument("--type", choices=["q8_0", "f16"], default="q8_0")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--name", default="random-llama-qwen3-vocab")
    a = p.parse_args()
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
    w.add_description("random weights (seed %d), vocabulary of %s" % (a.seed, a.tokenizer))
    w.add_context_length(a.context)
    w.add_embedding_length(a.dim)
    w.add_block_count(a.layers)
    w.add_feed_forward_length(a.ff)
    w.add_head_count(a.heads)
    w.add_head_count_kv(a.heads)
    w.add_rope_dimension_count(a.dim // a.heads)
    w.add_rope_freq_base(1_000_000.0)
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

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    os.replace(a.out + ".tmp", a.out)
    params = len(tokens) * a.dim + a.layers * (4 * a.dim * a.dim + 3 * a.dim * a.ff)
    print(f"model: {a.out}: llama, {params / 1e6:.1f}M parameters, vocabulary {len(tokens)}, {a.type}")


if __name__ == "__main__":
    main()
