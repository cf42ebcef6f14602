package io.github.gatlingllm.dsl;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Takes the {@code llm.*} system properties away for one test and puts them back after it. The test
 * JVM carries {@code llm.tokenizers} and {@code llm.conformance} (set by the pom for other tests),
 * which the DSL refuses as unknown settings.
 */
final class NoLlmProperties implements BeforeEachCallback, AfterEachCallback {

  private final Map<String, String> saved = new HashMap<>();

  @Override
  public void beforeEach(ExtensionContext context) {
    for (String name : System.getProperties().stringPropertyNames()) {
      if (name.startsWith("llm.")) {
        saved.put(name, System.getProperty(name));
        System.clearProperty(name);
      }
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    saved.forEach(System::setProperty);
    saved.clear();
  }
}
