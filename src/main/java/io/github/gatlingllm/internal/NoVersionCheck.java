package io.github.gatlingllm.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.prefs.AbstractPreferences;
import java.util.prefs.Preferences;
import java.util.prefs.PreferencesFactory;

/**
 * For internal use only. Turns off Gatling's check for a newer release, which asks Maven Central at
 * every run's start and prints {@code Gatling X is available! (you're using Y)} (Gatling 3.16.0,
 * {@code io.gatling.app.Runner.displayVersionWarning}; no setting turns it off). The check keeps
 * its last result in Java's preferences, node {@value #NODE}, and asks again only when that result
 * is too old; this factory, named by {@code -Djava.util.prefs.PreferencesFactory=} this class on
 * the Gatling JVM, gives the JVM preferences kept in memory in which that node holds a failed check
 * made at the end of time: Gatling reads "no newer release known", asks nothing and prints nothing.
 *
 * <p>Every other preference of the JVM is kept in memory for the JVM's life (Gatling's JVM keeps
 * none of its own).
 */
public final class NoVersionCheck implements PreferencesFactory {

  /** The node where Gatling keeps its last check ({@code LatestGatlingRelease.Prefs}). */
  public static final String NODE = "/io/gatling/latestVersion";

  private static final Preferences USER = new Node(null, "");
  private static final Preferences SYSTEM = new Node(null, "");

  /** Made by {@link Preferences} through {@code java.util.prefs.PreferencesFactory}. */
  public NoVersionCheck() {}

  @Override
  public Preferences systemRoot() {
    return SYSTEM;
  }

  @Override
  public Preferences userRoot() {
    return USER;
  }

  /** A node of preferences kept in memory. */
  private static final class Node extends AbstractPreferences {

    private final Map<String, String> values = new ConcurrentHashMap<>();

    Node(Node parent, String name) {
      super(parent, name);
      if (NODE.equals(absolutePath())) {
        // A failed check, made at the end of time: still fresh, so never made again.
        values.put("lastCheckTimestamp", Long.toString(Long.MAX_VALUE));
        values.put("lastCheckSuccess", "false");
      }
    }

    @Override
    protected void putSpi(String key, String value) {
      values.put(key, value);
    }

    @Override
    protected String getSpi(String key) {
      return values.get(key);
    }

    @Override
    protected void removeSpi(String key) {
      values.remove(key);
    }

    @Override
    protected void removeNodeSpi() {
      values.clear();
    }

    @Override
    protected String[] keysSpi() {
      return values.keySet().toArray(new String[0]);
    }

    @Override
    protected String[] childrenNamesSpi() {
      return new String[0];
    }

    @Override
    protected AbstractPreferences childSpi(String name) {
      return new Node(this, name);
    }

    @Override
    protected void syncSpi() {}

    @Override
    protected void flushSpi() {}
  }
}
