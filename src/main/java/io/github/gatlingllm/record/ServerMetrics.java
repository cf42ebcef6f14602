package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The run record's {@code server_metrics}: what the server's Prometheus {@code /metrics} said over
 * the run, scraped at the start, every {@code interval_ms} and at the end ({@code
 * server.ServerMetrics} scrapes; {@code protocol.ServerWatch} adds {@code run_hit_rate}).
 *
 * <p>{@code engine}, {@code run_hit_rate} and, once the engine is known, {@code
 * prefix_cache_hit_rate} are written even when null; the other fields are left out when null. Keys
 * this version does not know are kept in {@link #extra} and written after the others.
 *
 * @param url the scraped URL
 * @param intervalMs the scrape interval, milliseconds
 * @param engine the serving engine recognised from its series ({@code "unknown"} when it answered
 *     with none known), or null when no scrape was answered
 * @param startedAtMs the first scrape, epoch milliseconds; samples' {@code t_ms} count from it
 * @param scrapes the scrapes answered
 * @param failedScrapes the scrapes that failed
 * @param series each role's series name (role to name, e.g. {@code prompt_tokens}), or null when no
 *     engine was recognised
 * @param samples one per answered scrape: {@code t_ms} and each role's value (null when not
 *     finite), and from the second on the interval's {@code hit_rate}; or null without an engine
 * @param samplesDropped the scrapes not kept past the cap, or null when none were dropped
 * @param deltas each counter's increase over the run, or null without an engine
 * @param prefixCacheHitRate the server's own prefix-cache hit rate over the run (its formula in
 *     {@code hitRateFormula}), null when not known
 * @param hitRateFormula how the engine's hit rate is computed, or null without an engine
 * @param cacheConfig the KV cache's configuration the server reports ({@code block_size_tokens},
 *     {@code capacity_tokens}), or null
 * @param seriesFound the series names served when none is known to gatling-llm, or null
 * @param errors the failed scrapes ({@code t_ms}, {@code error}), or null when none failed
 * @param runHitRate the run's own hit rate: cached / prompt tokens in the requests' usage, null
 *     when no request reported prompt tokens
 * @param extra keys of newer versions, in the file's order; never null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonSerialize(using = ServerMetrics.Writer.class)
public record ServerMetrics(
    String url,
    Long intervalMs,
    String engine,
    Long startedAtMs,
    Long scrapes,
    Long failedScrapes,
    Map<String, String> series,
    List<Map<String, Number>> samples,
    Long samplesDropped,
    Map<String, Number> deltas,
    Double prefixCacheHitRate,
    String hitRateFormula,
    Map<String, Number> cacheConfig,
    List<String> seriesFound,
    List<ScrapeError> errors,
    Double runHitRate,
    @JsonAnySetter Map<String, Object> extra)
    implements KeepsNewerKeys {

  /** A sample's time, milliseconds since {@code started_at_ms}. */
  public static final String T_MS = "t_ms";

  /** A sample's share of the KV cache in use, in [0, 1]. */
  public static final String KV_CACHE_USAGE = "kv_cache_usage";

  /** A sample's requests running. */
  public static final String REQUESTS_RUNNING = "requests_running";

  /** A sample's requests waiting. */
  public static final String REQUESTS_WAITING = "requests_waiting";

  /** A sample's prefix-cache hit rate over the interval since the sample before it. */
  public static final String HIT_RATE = "hit_rate";

  /**
   * The KV cache's capacity the server reports.
   *
   * @return tokens, or null when not reported
   */
  public Number cacheCapacityTokens() {
    return cacheConfig == null ? null : cacheConfig.get("capacity_tokens");
  }

  /**
   * The KV cache's block size the server reports.
   *
   * @return tokens, or null when not reported
   */
  public Number cacheBlockSizeTokens() {
    return cacheConfig == null ? null : cacheConfig.get("block_size_tokens");
  }

  /** Normalises {@code extra} to an ordered map. */
  public ServerMetrics {
    extra = KeepsNewerKeys.ordered(extra);
  }

  /**
   * One failed scrape.
   *
   * @param tMs when, milliseconds since the first scrape
   * @param error what failed, one line
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record ScrapeError(long tMs, String error) {}

  /** The block's JSON form: the file's key order, and which nulls are written. */
  static final class Writer extends JsonSerializer<ServerMetrics> {
    @Override
    public void serialize(ServerMetrics m, JsonGenerator g, SerializerProvider p)
        throws IOException {
      g.writeStartObject();
      field(g, p, "url", m.url, false);
      field(g, p, "interval_ms", m.intervalMs, false);
      field(g, p, "engine", m.engine, true);
      field(g, p, "started_at_ms", m.startedAtMs, false);
      field(g, p, "scrapes", m.scrapes, false);
      field(g, p, "failed_scrapes", m.failedScrapes, false);
      field(g, p, "series", m.series, false);
      field(g, p, "samples", m.samples, false);
      field(g, p, "samples_dropped", m.samplesDropped, false);
      field(g, p, "deltas", m.deltas, false);
      // Written, null or not, once the engine is known (its formula is).
      field(g, p, "prefix_cache_hit_rate", m.prefixCacheHitRate, m.hitRateFormula != null);
      field(g, p, "hit_rate_formula", m.hitRateFormula, false);
      field(g, p, "cache_config", m.cacheConfig, false);
      field(g, p, "series_found", m.seriesFound, false);
      field(g, p, "errors", m.errors, false);
      field(g, p, "run_hit_rate", m.runHitRate, true);
      for (Map.Entry<String, Object> e : m.extra.entrySet()) {
        field(g, p, e.getKey(), e.getValue(), true);
      }
      g.writeEndObject();
    }

    private static void field(
        JsonGenerator g, SerializerProvider p, String name, Object value, boolean nullWritten)
        throws IOException {
      if (value != null || nullWritten) {
        g.writeFieldName(name);
        p.defaultSerializeValue(value, g);
      }
    }
  }
}
