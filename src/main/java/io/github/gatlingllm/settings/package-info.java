/**
 * Not API. The {@code -Dllm.*} setting names ({@link SettingNames}), their readers ({@link
 * SettingValues}, {@link SettingsReader}, {@link UnknownSettings}, {@link SimulatorSettings}), the
 * checks of values that go together ({@link SettingChecks}) and the validated values a run uses
 * ({@link LlmSettings}, {@link ConversationSettings}, {@link BodyFields}). Bad values are refused
 * with an error naming the setting, the value and what is allowed, before any load is sent.
 */
package io.github.gatlingllm.settings;
