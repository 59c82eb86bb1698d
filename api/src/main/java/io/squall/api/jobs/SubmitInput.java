package io.squall.api.jobs;

import java.util.List;
import java.util.Map;

/**
 * A submission as it arrived, before parsing: the script, explicit sbatch options (which
 * override its {@code #SBATCH} lines) and where it was submitted from.
 */
public record SubmitInput(String script, String scriptName, List<String> options, List<String> scriptArgs,
    Map<String, String> environment, String submitDir, boolean testOnly) {
  public SubmitInput {
    options = List.copyOf(options);
    scriptArgs = List.copyOf(scriptArgs);
    environment = Map.copyOf(environment);
  }
}
