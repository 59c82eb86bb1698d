package io.squall.cli;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code squall bench cli [--calls N] [--bin DIR]}: how long a Slurm verb takes from the shell,
 * launcher and JVM included, against the running service the verbs are configured for
 * ({@code SQUALL_URL}, {@code SQUALL_TOKEN}). Runs each of squeue, sinfo, sacct, sbatch --hold
 * (a two-line script), scontrol show job and scancel (of the jobs it submitted) N times as new
 * processes from DIR (default: the directory of the launcher that runs this) and prints one JSON
 * line per verb with the median and 90th percentile in milliseconds. It first waits (up to a
 * minute) for the launcher's class-data sharing archive, so the figures are those of every call
 * after the first; {@code "archive":false} says it was not in use.
 */
final class CliBench {
  /** The JVM's word for a class it took from the dynamic (AppCDS) archive. */
  private static final String FROM_ARCHIVE = "io.squall.cli.Main source: shared objects file (top)";
  private static final int ARCHIVE_WAIT_SECONDS = 60;

  private final Path bin;
  private final Map<String, String> env;
  private final Path workDir;

  private CliBench(Path bin, Map<String, String> env, Path workDir) {
    this.bin = bin;
    this.env = env;
    this.workDir = workDir;
  }

  static int run(Map<String, String> opts, Invocation io) throws InterruptedException {
    int calls = Integer.parseInt(opts.getOrDefault("calls", "20"));
    String launcher = System.getProperty("squall.launcher");
    String dir = opts.getOrDefault("bin", launcher == null ? null : Path.of(launcher).toAbsolutePath().getParent().toString());
    if (dir == null || !Files.isExecutable(Path.of(dir, "squall"))) {
      io.err().println("squall bench cli: no launcher directory" + (dir == null ? "" : " (" + dir + " has no squall)")
          + ": give --bin DIR, the directory of bin/squall and the verbs");
      return 2;
    }
    Path work;
    try {
      work = Files.createTempDirectory("squall-bench-cli");
      Files.writeString(work.resolve("bench.sh"), "#!/bin/sh\ntrue\n", StandardCharsets.UTF_8);
    } catch (IOException e) {
      io.err().println("squall bench cli: cannot make a work directory: " + e.getMessage());
      return 1;
    }
    try {
      return new CliBench(Path.of(dir), io.env(), work).measure(calls, io);
    } catch (IOException | IllegalStateException e) {
      io.err().println("squall bench cli: " + e.getMessage());
      return 1;
    } finally {
      for (String file : List.of("bench.sh", "stderr", "")) {
        try {
          Files.deleteIfExists(work.resolve(file));
        } catch (IOException e) {
          // a temporary directory left behind
        }
      }
    }
  }

  private int measure(int calls, Invocation io) throws IOException, InterruptedException {
    boolean archive = awaitArchive(io.sleeper());
    Map<String, List<Double>> times = new LinkedHashMap<>();
    for (String verb : List.of("squeue", "sinfo", "sacct")) {
      times.put(verb, repeat(calls, i -> List.of(verb)));
    }
    List<String> ids = new ArrayList<>();
    times.put("sbatch", repeat(calls, i -> List.of("sbatch", "--hold", "--parsable", "bench.sh"), ids::add));
    times.put("scontrol", repeat(calls, i -> List.of("scontrol", "show", "job", ids.get(0))));
    times.put("scancel", repeat(calls, i -> List.of("scancel", ids.get(i))));
    times.forEach((verb, ms) -> io.out().println(figures(verb, ms, archive)));
    return 0;
  }

  static String figures(String verb, List<Double> ms, boolean archive) {
    double[] sorted = ms.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = sorted.length;
    double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    double p90 = sorted[(int) Math.ceil(0.9 * n) - 1]; // nearest rank
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("verb", verb);
    line.put("calls", n);
    line.put("median_ms", Math.round(median));
    line.put("p90_ms", Math.round(p90));
    line.put("archive", archive);
    return Json.write(line);
  }

  /** Whether the launcher runs from its archive, waiting for its recorder when the first call starts one. */
  private boolean awaitArchive(Sleeper sleeper) throws IOException, InterruptedException {
    if ("none".equals(env.get("SQUALL_CDS_ARCHIVE"))) {
      return false;
    }
    Map<String, String> logged = new LinkedHashMap<>(env);
    logged.put("SQUALL_JAVA_OPTS", (env.getOrDefault("SQUALL_JAVA_OPTS", "") + " -Xlog:class+load=info").strip());
    for (int waited = 0; waited < ARCHIVE_WAIT_SECONDS; waited++) {
      if (call(List.of("squall", "--help"), logged).contains(FROM_ARCHIVE)) {
        return true;
      }
      sleeper.sleep(Duration.ofSeconds(1));
    }
    return false;
  }

  private interface Args {
    List<String> of(int call);
  }

  private List<Double> repeat(int calls, Args args) throws IOException, InterruptedException {
    return repeat(calls, args, out -> {});
  }

  private List<Double> repeat(int calls, Args args, Consumer<String> output)
      throws IOException, InterruptedException {
    List<Double> ms = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      long start = System.nanoTime();
      String out = call(args.of(i), env);
      ms.add((System.nanoTime() - start) / 1e6);
      output.accept(out.strip());
    }
    return ms;
  }

  /** Runs VERB ARGS from the launcher directory; its standard output, or an exception naming the failure. */
  private String call(List<String> command, Map<String, String> environment) throws IOException, InterruptedException {
    List<String> line = new ArrayList<>(command);
    line.set(0, bin.resolve(command.get(0)).toString());
    ProcessBuilder pb = new ProcessBuilder(line).directory(workDir.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.environment().clear();
    pb.environment().putAll(environment);
    Path err = workDir.resolve("stderr");
    pb.redirectError(err.toFile());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed (exit " + p.exitValue() + "): "
          + Files.readString(err, StandardCharsets.UTF_8).strip());
    }
    return out;
  }
}
