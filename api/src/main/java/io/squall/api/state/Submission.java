package io.squall.api.state;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What a user submitted, kept verbatim: the job request is parsed from it again after a restart.
 *
 * @param options the explicit sbatch options, in the order they override the script's directives
 * @param environment the submitter's environment, exported to the job as sbatch's --export=ALL does
 */
public record Submission(long jobId, String scriptName, String script, List<String> options,
    List<String> scriptArgs, Map<String, String> environment, String submitDir, Instant submitTime) {
  public Submission {
    options = List.copyOf(options);
    scriptArgs = List.copyOf(scriptArgs);
    environment = Map.copyOf(environment);
  }
}
