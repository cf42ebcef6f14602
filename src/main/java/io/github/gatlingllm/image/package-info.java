/**
 * Deterministic images for vision prompts: a seeded generator of valid PNG and JPEG images ({@link
 * ImageGenerator}), the images a prompt carries ({@link PromptImages}) and how many prompt tokens
 * an image costs on a model's processor ({@link ImageTokens}). Knows nothing of HTTP, Gatling or
 * prompts' text: the lowest room after {@code stats}.
 */
package io.github.gatlingllm.image;
