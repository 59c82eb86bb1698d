package io.squall.cli;

import io.squall.cli.service.Submission;
import io.squall.cli.service.SubmitResult;
import io.squall.core.sbatch.CommandLine;
import io.squall.core.sbatch.SbatchException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code sbatch [OPTIONS] SCRIPT [ARGS...]}: sends the script and the options as typed to the
 * service, which parses and validates them (one parser, one set of rules: no local guessing).
 * Only the options that change what this client does are handled here: {@code --parsable},
 * {@code --test-only}, {@code --wait} ({@link JobWait}), {@code --wrap} and {@code --parse-only}
 * ({@link SbatchCommand}).
 */
final class SbatchSubmit extends ServiceVerb {
  /** Slurm's wrapper script text for {@code --wrap}, so jobs look the same in both. */
  static final String WRAP_HEADER = "#!/bin/sh\n# This script was created by sbatch --wrap.\n\n";

  /**
   * The client-side options given before the script, and the command line without them.
   *
   * @param line sbatch's options, the script (null for standard input) and the words after it
   */
  record ClientOptions(boolean parseOnly, boolean parsable, boolean testOnly, boolean waitForEnd, String wrap,
      CommandLine line) {}

  /** A script's text and the name the job gets from it. */
  record Script(String text, String name) {}

  SbatchSubmit(Invocation io) {
    super("sbatch", io);
  }

  /** Submits; the caller runs this {@link #guarded}. */
  int submit(ClientOptions client) {
    CommandLine line = client.line();
    Script script = readScript(client);
    Submission submission = new Submission(script.text(), line.options(), io.cwd().toString(), script.name(), io.env(),
        line.afterScript(), client.testOnly() ? Boolean.TRUE : null);
    SubmitResult result = client().submit(submission);
    result.warnings().forEach(this::warning);
    if (client.testOnly()) {
      // Slurm reports a test-only result on stderr (through its info()); scripts redirect 2>&1.
      io.err().println(testOnlyMessage(result));
      return 0;
    }
    if (client.parsable()) {
      io.out().println(result.jobId());
    } else {
      io.out().println("Submitted batch job " + result.jobId());
    }
    // SBATCH_WAIT set to anything means --wait, as in sbatch; the service never acts on it.
    if (!client.waitForEnd() && !io.env().containsKey("SBATCH_WAIT")) {
      return 0;
    }
    io.out().flush();
    try {
      return new JobWait(client(), io.sleeper(), this::error).exitStatus(result.jobId());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    }
  }

  /**
   * Takes {@code --parse-only}, {@code --parsable}, {@code --test-only}, {@code --wait}
   * ({@code -W}) and {@code --wrap} out of the options before the script; the same words after the script are the script's own
   * arguments and stay.
   *
   * @throws UsageException for an unknown sbatch option or one without its value
   */
  static ClientOptions extract(List<String> words) {
    // First find where the script is, with every client option set aside (core's splitter
    // does not know them), then take out only those that came before it.
    List<String> kept = new ArrayList<>();
    List<Integer> keptAt = new ArrayList<>();
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      if (w.equals("--")) {
        for (int k = i; k < words.size(); k++) {
          kept.add(words.get(k));
          keptAt.add(k);
        }
        break;
      }
      if (isClientFlag(w) || w.startsWith("--wrap=")) {
        continue;
      }
      if (w.equals("--wrap")) {
        i++; // its value goes too
        continue;
      }
      kept.add(w);
      keptAt.add(i);
    }
    CommandLine split = split(kept);
    int scriptAt = words.size();
    if (split.script() != null) {
      int k = split.options().size();
      if (kept.get(k).equals("--")) {
        k++;
      }
      scriptAt = keptAt.get(k);
    }
    boolean parseOnly = false;
    boolean parsable = false;
    boolean testOnly = false;
    boolean waitForEnd = false;
    String wrap = null;
    for (int i = 0; i < scriptAt; i++) {
      String w = words.get(i);
      if (w.equals("--")) {
        break;
      }
      if (w.equals("--parse-only")) {
        parseOnly = true;
      } else if (w.equals("--parsable")) {
        parsable = true;
      } else if (w.equals("--test-only")) {
        testOnly = true;
      } else if (w.equals("--wait") || w.equals("-W")) {
        waitForEnd = true;
      } else if (w.startsWith("--wrap=")) {
        wrap = w.substring("--wrap=".length());
      } else if (w.equals("--wrap")) {
        if (i + 1 >= words.size()) {
          throw new UsageException("option '--wrap' requires an argument");
        }
        wrap = words.get(++i);
      }
    }
    List<String> afterScript = split.script() == null ? List.of() : words.subList(scriptAt + 1, words.size());
    return new ClientOptions(parseOnly, parsable, testOnly, waitForEnd, wrap,
        new CommandLine(split.options(), split.script(), afterScript));
  }

  private static boolean isClientFlag(String w) {
    return w.equals("--parse-only") || w.equals("--parsable") || w.equals("--test-only") || w.equals("--wait")
        || w.equals("-W");
  }

  private static CommandLine split(List<String> words) {
    try {
      return CommandLine.split(words);
    } catch (SbatchException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /**
   * The batch script: {@code --wrap}'s command in Slurm's wrapper, the named file, or standard
   * input when no file (or {@code -}) is named.
   *
   * @throws UsageException when the file cannot be read, or a file is named with {@code --wrap}
   */
  Script readScript(ClientOptions client) {
    String file = client.line().script();
    if (client.wrap() != null) {
      if (file != null) {
        throw new UsageException("Script arguments not permitted with --wrap option");
      }
      return new Script(WRAP_HEADER + client.wrap() + "\n", "wrap");
    }
    try {
      if (file == null || file.equals("-")) {
        return new Script(new String(io.in().readAllBytes(), StandardCharsets.UTF_8), "sbatch");
      }
      Path path = io.cwd().resolve(file);
      return new Script(Files.readString(path, StandardCharsets.UTF_8), path.getFileName().toString());
    } catch (NoSuchFileException e) {
      throw new UsageException("Unable to open file " + e.getFile());
    } catch (IOException e) {
      throw new UsageException("cannot read the script: " + e.getMessage());
    }
  }

  /**
   * Slurm's words, {@code Job 0 to start at T using N processors on nodes X in partition P}, with
   * what the service knows: Squall places GPUs and sends no CPU count, so it says GPUs.
   */
  private String testOnlyMessage(SubmitResult r) {
    String id = r.jobId() == null ? "0" : r.jobId();
    String partition = r.partition() == null ? "" : " in partition " + r.partition();
    String cost = r.costUsdMin() == null || r.costUsdMax() == null ? ""
        : String.format(java.util.Locale.ROOT, "; expected cost %.2f to %.2f USD (cheapest to dearest offering)",
            r.costUsdMin(), r.costUsdMax());
    if (r.expectedStart() == null) {
      return "sbatch: Job " + id + " cannot be scheduled now" + partition
          + (r.reason() == null ? "" : ": " + r.reason()) + cost;
    }
    String using = r.numGpus() != null ? " using " + r.numGpus() + " GPUs" : "";
    return "sbatch: Job " + id + " to start at " + timeFormat().format(r.expectedStart()) + using
        + (r.nodes() == null ? "" : " on nodes " + r.nodes()) + partition + cost;
  }
}
