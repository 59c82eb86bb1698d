package io.squall.cli;

import io.squall.cli.format.SlurmTime;
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
 * {@code --test-only} and {@code --wrap}.
 */
final class SbatchSubmit extends ServiceVerb {
  /** Slurm's wrapper script text for {@code --wrap}, so jobs look the same in both. */
  static final String WRAP_HEADER = "#!/bin/sh\n# This script was created by sbatch --wrap.\n\n";

  /** The client-side options and everything else, in order. */
  record ClientOptions(boolean parsable, boolean testOnly, String wrap, List<String> rest) {}

  SbatchSubmit(Invocation io) {
    super("sbatch", io);
  }

  int run(List<String> words) {
    return guarded(() -> {
      ClientOptions client = extract(words);
      CommandLine line = split(client.rest());
      String script;
      String name;
      List<String> scriptArgs = line.afterScript();
      if (client.wrap() != null) {
        if (line.script() != null) {
          throw new UsageException("Script arguments not permitted with --wrap option");
        }
        script = WRAP_HEADER + client.wrap() + "\n";
        name = "wrap";
      } else if (line.script() == null || line.script().equals("-")) {
        script = read(null);
        name = "sbatch";
      } else {
        Path path = io.cwd().resolve(line.script());
        script = read(path);
        name = path.getFileName().toString();
      }
      Submission submission = new Submission(script, line.options(), io.cwd().toString(), name, io.env(), scriptArgs,
          client.testOnly() ? Boolean.TRUE : null);
      SubmitResult result = client().submit(submission);
      result.warnings().forEach(this::warning);
      if (client.testOnly()) {
        // Slurm reports a test-only result on stderr (through its info()); scripts redirect 2>&1.
        io.err().println(testOnlyMessage(result));
      } else if (client.parsable()) {
        io.out().println(result.jobId());
      } else {
        io.out().println("Submitted batch job " + result.jobId());
      }
      return 0;
    });
  }

  /**
   * Takes {@code --parsable}, {@code --test-only} and {@code --wrap} out of the options before
   * the script; the same words after the script are the script's own arguments and stay.
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
      if (w.equals("--wrap") && i + 1 < words.size()) {
        i++;
        continue;
      }
      kept.add(w);
      keptAt.add(i);
    }
    CommandLine line = split(kept);
    int scriptAt = words.size();
    if (line.script() != null) {
      int k = line.options().size();
      if (kept.get(k).equals("--")) {
        k++;
      }
      scriptAt = keptAt.get(k);
    }
    boolean parsable = false;
    boolean testOnly = false;
    String wrap = null;
    List<String> rest = new ArrayList<>();
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      if (i >= scriptAt || w.equals("--")) {
        rest.addAll(words.subList(i, words.size()));
        break;
      }
      if (w.equals("--parsable")) {
        parsable = true;
      } else if (w.equals("--test-only")) {
        testOnly = true;
      } else if (w.startsWith("--wrap=")) {
        wrap = w.substring("--wrap=".length());
      } else if (w.equals("--wrap") && i + 1 < words.size()) {
        wrap = words.get(++i);
      } else {
        rest.add(w);
      }
    }
    return new ClientOptions(parsable, testOnly, wrap, rest);
  }

  private static boolean isClientFlag(String w) {
    return w.equals("--parsable") || w.equals("--test-only");
  }

  private static CommandLine split(List<String> words) {
    try {
      return CommandLine.split(words);
    } catch (SbatchException e) {
      throw new UsageException(e.getMessage());
    }
  }

  private String read(Path path) {
    try {
      if (path == null) {
        return new String(io.in().readAllBytes(), StandardCharsets.UTF_8);
      }
      return Files.readString(path, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new UsageException("Unable to open file " + e.getFile());
    } catch (IOException e) {
      throw new UsageException("cannot read the script: " + e.getMessage());
    }
  }

  /**
   * Slurm's words, {@code Job 0 to start at T using N processors on nodes X in partition P}, with
   * what the service knows: Squall places GPUs, so it says GPUs where it has no CPU count.
   */
  private String testOnlyMessage(SubmitResult r) {
    String id = r.jobId() == null ? "0" : r.jobId();
    String partition = r.partition() == null ? "" : " in partition " + r.partition();
    if (r.expectedStart() == null) {
      return "sbatch: Job " + id + " cannot be scheduled now" + partition
          + (r.reason() == null ? "" : ": " + r.reason());
    }
    String using = r.numCpus() != null ? " using " + r.numCpus() + " processors"
        : r.numGpus() != null ? " using " + r.numGpus() + " GPUs" : "";
    return "sbatch: Job " + id + " to start at " + SlurmTime.timestamp(r.expectedStart(), io.zone()) + using
        + (r.nodes() == null ? "" : " on nodes " + r.nodes()) + partition;
  }
}
