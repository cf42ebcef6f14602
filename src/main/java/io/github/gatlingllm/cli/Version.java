package io.github.gatlingllm.cli;

import picocli.CommandLine;

/** The version picocli prints for {@code --version}. */
final class Version implements CommandLine.IVersionProvider {

  @Override
  public String[] getVersion() {
    Package p = Version.class.getPackage();
    String version = p == null ? null : p.getImplementationVersion();
    return new String[] {"gatling-llm " + (version == null ? "development build" : version)};
  }
}
