package io.squall.cli;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shape Slurm's tools print with {@code --json} since 23.02 (data_parser/v0.0.39): a
 * top-level {@code meta}, {@code errors}, {@code warnings} and the records, and the value shapes
 * of Slurm's parsers.c: numbers that may be unset or infinite are {@code {"set","infinite",
 * "number"}}, times are seconds since the epoch (0 when unknown), exit codes are a status with a
 * return code or signal, TRES are lists of {@code {"type","name","id","count"}}. Only fields
 * Squall knows are written; a field Slurm has and Squall does not is left out, never made up.
 */
final class SlurmJson {
  /** Slurm's TRES ids: fixed for cpu, mem and node, the first GRES a fresh database registers for gres/gpu. */
  private static final int TRES_CPU = 1;
  private static final int TRES_MEM = 2;
  private static final int TRES_NODE = 4;
  private static final int TRES_GPU = 1001;

  private SlurmJson() {}

  /**
   * The whole answer: {@code {"meta":..,"errors":[],"warnings":[],KEY:[records]}}.
   *
   * @param command the tool's command line, its name first
   */
  static Map<String, Object> answer(List<String> command, String key, List<?> records) {
    Map<String, Object> version = new LinkedHashMap<>();
    version.put("major", 23);
    version.put("micro", 0);
    version.put("minor", 2);
    Map<String, Object> slurm = new LinkedHashMap<>();
    slurm.put("version", version);
    slurm.put("release", "23.02.0 (squall)");
    Map<String, Object> plugin = new LinkedHashMap<>();
    plugin.put("type", "");
    plugin.put("name", "");
    plugin.put("data_parser", "data_parser/v0.0.39");
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("plugin", plugin);
    meta.put("command", command);
    meta.put("Slurm", slurm);
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("meta", meta);
    answer.put("errors", List.of());
    answer.put("warnings", List.of());
    answer.put(key, records);
    return answer;
  }

  /** A number that may be unset: {@code {"set":true,"infinite":false,"number":N}} or unset. */
  static Map<String, Object> number(Number value) {
    return flagged(value != null, false, value == null ? 0 : value);
  }

  /** A limit where null means none: {@code {"set":false,"infinite":true,"number":0}}. */
  static Map<String, Object> limit(Number value) {
    return value == null ? flagged(false, true, 0) : number(value);
  }

  private static Map<String, Object> flagged(boolean set, boolean infinite, Number number) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("set", set);
    m.put("infinite", infinite);
    m.put("number", number);
    return m;
  }

  /** Seconds since the epoch, 0 for none, as Slurm's UINT64 times. */
  static long seconds(Instant at) {
    return at == null ? 0 : at.getEpochSecond();
  }

  /** The wait(2) status Slurm keeps as a job's exit code: the code in the high byte, or the signal. */
  static long waitStatus(Integer code, Integer signal) {
    if (signal != null && signal != 0) {
      return signal;
    }
    return code == null ? 0 : (long) (code & 0xff) << 8;
  }

  /**
   * A job's exit as sacct's JSON has it: {@code SUCCESS} with return code 0, {@code ERROR} with the
   * code, {@code SIGNALED} with the signal's number and strsignal name, or {@code PENDING} while
   * it has none.
   */
  static Map<String, Object> exitCode(Integer code, Integer signal) {
    Map<String, Object> m = new LinkedHashMap<>();
    if (signal != null && signal != 0) {
      m.put("status", "SIGNALED");
      m.put("return_code", null);
      Map<String, Object> sig = new LinkedHashMap<>();
      sig.put("signal_id", signal);
      sig.put("name", signalName(signal));
      m.put("signal", sig);
    } else if (code == null) {
      m.put("status", "PENDING");
      m.put("return_code", null);
    } else {
      m.put("status", code == 0 ? "SUCCESS" : "ERROR");
      m.put("return_code", code);
    }
    return m;
  }

  /** strsignal(3)'s words on Linux (glibc), as Slurm prints them. */
  private static final List<String> SIGNAL_WORDS = List.of("", "Hangup", "Interrupt", "Quit", "Illegal instruction",
      "Trace/breakpoint trap", "Aborted", "Bus error", "Floating point exception", "Killed", "User defined signal 1",
      "Segmentation fault", "User defined signal 2", "Broken pipe", "Alarm clock", "Terminated", "Stack fault",
      "Child exited", "Continued", "Stopped (signal)", "Stopped", "Stopped (tty input)", "Stopped (tty output)",
      "Urgent I/O condition", "CPU time limit exceeded", "File size limit exceeded", "Virtual timer expired",
      "Profiling timer expired", "Window changed", "I/O possible", "Power failure", "Bad system call");

  private static String signalName(int signal) {
    if (signal > 0 && signal < SIGNAL_WORDS.size()) {
      return SIGNAL_WORDS.get(signal);
    }
    return signal >= 34 && signal <= 64 ? "Real-time signal " + (signal - 34) : "Unknown signal " + signal;
  }

  /**
   * A TRES list in Slurm's id order: CPUs, memory (megabytes), nodes, then GPUs; a count not known
   * or zero is left out.
   */
  static List<Map<String, Object>> tres(Integer cpus, Long memoryMb, Integer gpus, Integer nodes) {
    List<Map<String, Object>> out = new ArrayList<>();
    if (cpus != null && cpus > 0) {
      out.add(tres("cpu", "", TRES_CPU, cpus));
    }
    if (memoryMb != null && memoryMb > 0) {
      out.add(tres("mem", "", TRES_MEM, memoryMb));
    }
    if (nodes != null && nodes > 0) {
      out.add(tres("node", "", TRES_NODE, nodes));
    }
    if (gpus != null && gpus > 0) {
      out.add(tres("gres", "gpu", TRES_GPU, gpus));
    }
    return out;
  }

  private static Map<String, Object> tres(String type, String name, int id, long count) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", type);
    m.put("name", name);
    m.put("id", id);
    m.put("count", count);
    return m;
  }

  /** The number of a job id as typed ({@code 42} of {@code 42_3}). */
  static long jobNumber(String jobId) {
    int u = jobId.indexOf('_');
    return Long.parseLong(u < 0 ? jobId : jobId.substring(0, u));
  }
}
