package io.squall.simulate.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The trace formats Squall reads, by the name users give with {@code --trace-format}. */
public enum TraceFormat {
  /** {@code sacct -a -P -X --format=...} output: {@link SacctReader}. */
  SACCT("sacct"),
  /** The Parallel Workloads Archive's Standard Workload Format: {@link SwfReader}. */
  SWF("swf"),
  /** Microsoft's Philly GPU cluster jobs as Squall bundles them: {@link PhillyReader}. */
  PHILLY("philly"),
  /** Alibaba's cluster-trace-gpu-v2020 task table: {@link AlibabaReader}. */
  ALIBABA("alibaba"),
  /** Squall's own JSON Lines format: {@link JsonlReader}. */
  JSONL("jsonl");

  private final String formatName;

  TraceFormat(String formatName) {
    this.formatName = formatName;
  }

  /** The name users type: {@code sacct}, {@code swf}, {@code philly}, {@code alibaba}, {@code jsonl}. */
  public String formatName() {
    return formatName;
  }

  /**
   * @param name a format's name, in any case
   * @throws IllegalArgumentException naming the formats there are, when there is none of that name
   */
  public static TraceFormat byName(String name) {
    List<String> names = new ArrayList<>();
    for (TraceFormat format : values()) {
      if (format.formatName.equals(name.strip().toLowerCase(Locale.ROOT))) {
        return format;
      }
      names.add(format.formatName);
    }
    throw new IllegalArgumentException("unknown trace format \"" + name + "\" (formats: " + String.join(", ", names)
        + ")");
  }

  /** This format's reader, told what the trace does not say. */
  public TraceReader reader(TraceOptions options) {
    return switch (this) {
      case SACCT -> new SacctReader(options.zone());
      case SWF -> new SwfReader(options.procsPerGpu(), options.nodeGpus());
      case PHILLY -> new PhillyReader(options.zone(), options.nodeGpus());
      case ALIBABA -> new AlibabaReader();
      case JSONL -> new JsonlReader();
    };
  }

  /** This format's reader with {@link TraceOptions#DEFAULTS}. */
  public TraceReader reader() {
    return reader(TraceOptions.DEFAULTS);
  }
}
