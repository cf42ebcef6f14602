package io.github.gatlingllm.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The tools catalog: names, descriptions and schemas are seeded draws, so the literal JSON below
 * was computed apart from this code, with Python's hashlib and json ({@code json.dumps(tools,
 * separators=(",", ":"))}).
 */
class ToolCatalogTest {

  private static final String THREE_TOOLS =
      "[{\"type\":\"function\",\"function\":{\"name\":\"create_metrics_0\",\"description\":"
          + "\"[1ff21dff9608] profile inference latency\",\"parameters\":{\"type\":\"object\","
          + "\"properties\":{\"query\":{\"type\":\"string\",\"enum\":[\"low\",\"medium\",\"high\"]},"
          + "\"verbose\":{\"type\":\"string\"},\"format\":{\"type\":\"string\",\"enum\":"
          + "[\"low\",\"medium\",\"high\"]}},\"required\":[\"query\",\"verbose\",\"format\"]}}},"
          + "{\"type\":\"function\",\"function\":{\"name\":\"fetch_metrics_1\",\"description\":"
          + "\"[4ba7862a8d12] profile inference latency\",\"parameters\":{\"type\":\"object\","
          + "\"properties\":{\"query\":{\"type\":\"string\",\"enum\":[\"low\",\"medium\",\"high\"]},"
          + "\"location\":{\"type\":\"string\"},\"verbose\":{\"type\":\"string\",\"enum\":"
          + "[\"low\",\"medium\",\"high\"]},\"id\":{\"type\":\"integer\",\"minimum\":1,"
          + "\"maximum\":100}},\"required\":[\"query\",\"id\"]}}},{\"type\":\"function\","
          + "\"function\":{\"name\":\"compute_users_2\",\"description\":\"[1e09b12d814a] profile"
          + " inference latency\",\"parameters\":{\"type\":\"object\",\"properties\":{\"verbose\":"
          + "{\"type\":\"string\",\"enum\":[\"low\",\"medium\",\"high\"]},\"query\":{\"type\":"
          + "\"string\"}},\"required\":[\"verbose\"]}}}]";

  private static ToolCatalog catalog(long seed, int count) {
    return new ToolCatalog(EstimatedTokenCounter.INSTANCE, seed, "agent-test", count, 4);
  }

  @Test
  void toolsAreSeededFunctionsWithJsonSchemaParameters() {
    assertEquals(THREE_TOOLS, catalog(7, 3).json());
  }

  @Test
  void theDigestIsTheJsonText() {
    assertEquals("7f46e3af4ab15235", catalog(7, 3).digest());
  }

  @Test
  void namesInOrder() {
    assertEquals(
        List.of("create_metrics_0", "fetch_metrics_1", "compute_users_2"),
        catalog(7, 3).tools().stream().map(ToolCatalog.Tool::name).toList());
  }

  @Test
  void theSameSeedGivesTheSameCatalog() {
    assertEquals(catalog(7, 3).json(), catalog(7, 3).json());
  }

  @Test
  void anotherSeedGivesAnotherCatalog() {
    assertNotEquals(catalog(7, 3).json(), catalog(8, 3).json());
  }

  @Test
  void moreToolsKeepTheFirstOnes() {
    assertEquals(
        catalog(7, 3).tools().get(2).function().toString(),
        catalog(7, 5).tools().get(2).function().toString());
  }

  @Test
  void tokensAreTheCountOfTheJson() {
    ToolCatalog c = catalog(7, 3);
    assertEquals(EstimatedTokenCounter.INSTANCE.count(c.json()), c.tokens());
  }

  @Test
  void noToolsIsAnEmptyArrayOfNoTokens() {
    ToolCatalog c = catalog(7, 0);
    assertEquals("[]", c.json());
    assertEquals(0, c.tokens());
  }

  @Test
  void functionTreesAreCopies() {
    ToolCatalog c = catalog(7, 1);
    c.tools().get(0).function().with("function").put("name", "changed");
    c.functions().removeAll();
    assertEquals("create_metrics_0", c.tools().get(0).name());
    assertEquals(1, c.functions().size());
  }

  @Test
  void negativeCountRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> catalog(7, -1));
    assertEquals("tools: got -1, expected 0 to 128 tools", e.getMessage());
  }

  @Test
  void tooManyToolsRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> catalog(7, 129));
    assertEquals("tools: got 129, expected 0 to 128 tools", e.getMessage());
  }

  @Test
  void zeroDescriptionTokensRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new ToolCatalog(EstimatedTokenCounter.INSTANCE, 7, "agent-test", 3, 0));
    assertEquals("toolDescriptionTokens: got 0, expected >= 1", e.getMessage());
  }
}
