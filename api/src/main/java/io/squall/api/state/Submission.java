package io.squall.api.state;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a user submitted, kept verbatim: the job request is parsed from it again after a restart.
 *
 * @param options the explicit sbatch options, in the order they override the script's directives
 * @param environment the submitter's environment, exported to the job as sbatch's --export=ALL does
 * @param updates the sbatch options {@code scontrol update} gave this job since, applied after
 *     {@code options}; kept per job (stored with its row), as one task of an array may be updated alone
 * @param interactive an interactive allocation (salloc, or srun outside a job): {@code script} is
 *     only {@link #INTERACTIVE_SCRIPT}, nothing runs on its nodes until srun launches a step, and
 *     it ends when its client relinquishes it
 */
public record Submission(long jobId, String scriptName, String script, List<String> options,
    List<String> scriptArgs, Map<String, String> environment, String submitDir, Instant submitTime,
    List<String> updates, boolean interactive) {
  /** What an interactive allocation keeps as its script: the parser reads its options against it. */
  public static final String INTERACTIVE_SCRIPT = "#!/bin/sh\n# an interactive allocation (salloc or srun): no batch script\n";

  public Submission {
    options = List.copyOf(options);
    scriptArgs = List.copyOf(scriptArgs);
    environment = Map.copyOf(environment);
    updates = List.copyOf(updates);
  }

  /** As submitted, never updated. */
  public Submission(long jobId, String scriptName, String script, List<String> options, List<String> scriptArgs,
      Map<String, String> environment, String submitDir, Instant submitTime) {
    this(jobId, scriptName, script, options, scriptArgs, environment, submitDir, submitTime, List.of(), false);
  }

  /** The explicit options the request is read from: the submitted ones, then the updates. */
  public List<String> allOptions() {
    List<String> all = new ArrayList<>(options);
    all.addAll(updates);
    return all;
  }

  /** The same submission with {@code more} updates after the ones it has. */
  public Submission updatedWith(List<String> more) {
    List<String> all = new ArrayList<>(updates);
    all.addAll(more);
    return new Submission(jobId, scriptName, script, options, scriptArgs, environment, submitDir, submitTime, all, interactive);
  }

  /** The same submission with exactly these updates (as stored with a job's row). */
  public Submission withUpdates(List<String> stored) {
    return new Submission(jobId, scriptName, script, options, scriptArgs, environment, submitDir, submitTime, stored, interactive);
  }
}
