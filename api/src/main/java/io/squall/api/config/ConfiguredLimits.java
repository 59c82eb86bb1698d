package io.squall.api.config;

import io.squall.core.model.Account;
import io.squall.core.model.PreemptMode;
import io.squall.core.model.Qos;
import io.squall.core.model.Tres;
import io.squall.core.provider.CapacityType;
import java.util.Locale;
import java.util.Set;

/**
 * QOS definitions and account limits from configuration, checked as sacctmgr checks them: a value
 * it would refuse stops the start-up, naming the key.
 */
final class ConfiguredLimits {
  private ConfiguredLimits() {}

  /** An account's association limits from {@code squall.accounts.NAME.*}. */
  static Account.Limits of(AccountConfig a) {
    String key = "squall.accounts." + a.getName() + ".";
    return new Account.Limits(tres(key + "grp-tres", a.getGrpTres()), gpuMinutes(key + "grp-tres-mins",
        a.getGrpTresMins()), count(key + "max-jobs", a.getMaxJobs()), count(key + "max-submit-jobs",
        a.getMaxSubmitJobs()));
  }

  /**
   * The QOS {@code squall.qos.NAME.*} defines.
   *
   * @param known every QOS name, for its preempt list
   */
  static Qos of(QosConfig q, Set<CapacityType> runsOn, Set<String> known) {
    String key = "squall.qos." + q.getName() + ".";
    for (String victim : q.getPreempt()) {
      if (!known.contains(victim)) {
        throw new IllegalStateException(key + "preempt: no QOS '" + victim + "' under squall.qos (or the default QOS)");
      }
    }
    if (!(q.getUsageFactor() >= 0) || Double.isInfinite(q.getUsageFactor())) {
      throw new IllegalStateException(key + "usage-factor: must be 0 (free) or more, not " + q.getUsageFactor());
    }
    return new Qos(q.getName(), q.getPriority(), Set.copyOf(q.getPreempt()), preemptMode(key, q.getPreemptMode()),
        tres(key + "grp-tres", q.getGrpTres()), gpuMinutes(key + "grp-tres-mins", q.getGrpTresMins()), runsOn,
        tres(key + "max-tres-per-user", q.getMaxTresPerUser()), count(key + "max-jobs-per-user",
        q.getMaxJobsPerUser()), count(key + "max-submit-jobs-per-user", q.getMaxSubmitJobsPerUser()),
        q.getUsageFactor());
  }

  private static PreemptMode preemptMode(String key, String text) {
    String mode = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    return switch (mode) {
      case "off" -> PreemptMode.OFF;
      case "requeue" -> PreemptMode.REQUEUE;
      case "cancel" -> PreemptMode.CANCEL;
      default -> throw new IllegalStateException(key + "preempt-mode: '" + text + "' is not off, requeue or cancel");
    };
  }

  private static Tres tres(String key, String text) {
    try {
      return Tres.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(key + ": " + e.getMessage(), e);
    }
  }

  /** GrpTRESMins: usage is GPU time, so only {@code gres/gpu} minutes can be counted. */
  private static Long gpuMinutes(String key, String text) {
    Tres t = tres(key, text);
    if (t.cpus() != null || t.memoryMb() != null || t.nodes() != null) {
      throw new IllegalStateException(key + ": '" + text + "': only gres/gpu minutes are counted (usage is GPU "
          + "time), as gres/gpu=MINUTES");
    }
    return t.gpus() == null ? null : t.gpus().longValue();
  }

  private static Integer count(String key, Integer n) {
    if (n != null && n < 0) {
      throw new IllegalStateException(key + ": must be 0 or more, not " + n);
    }
    return n;
  }
}
