/**
 * What a run learns from the server it loads: the engine behind the URL ({@link ServerProbe},
 * {@link ServerInfo}, {@link ServerEngine}) and its Prometheus metrics ({@link ServerMetrics},
 * {@link PrometheusText}).
 */
package io.github.gatlingllm.server;
