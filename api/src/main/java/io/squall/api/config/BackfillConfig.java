package io.squall.api.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.squall.core.schedule.Backfill;
import java.time.Duration;

/**
 * Slurm's backfill SchedulerParameters ({@code squall.backfill.*}): {@code window} (bf_window),
 * {@code max-job-test} (bf_max_job_test), {@code resolution} (bf_resolution) and {@code continue}
 * (bf_continue), with Slurm's defaults and ranges; a value outside them stops start-up, naming its
 * key (Slurm logs "Invalid SchedulerParameters" and uses the default instead).
 *
 * <p>{@code continue} is accepted, true or false, and changes nothing: Slurm's bf_continue lets the
 * backfill scheduler carry on with its job list after it released its locks and job or node state
 * changed meanwhile. A cycle here plans on one snapshot and never stops half-way, so its backfill
 * pass always runs to the end of the queue, whichever the setting says.
 */
@ConfigurationProperties("squall.backfill")
public class BackfillConfig {
  private static final Backfill DEFAULTS = Backfill.defaults();
  private Duration window = DEFAULTS.window();
  private int maxJobTest = DEFAULTS.maxJobTest();
  private Duration resolution = DEFAULTS.resolution();
  private String continueAfterChanges = "false";

  /**
   * The settings the scheduler uses.
   *
   * @throws IllegalArgumentException naming the key, when a value is outside Slurm's range
   */
  public Backfill settings() {
    if (window.compareTo(Backfill.MIN_WINDOW) < 0 || window.compareTo(Backfill.MAX_WINDOW) > 0) {
      throw new IllegalArgumentException("squall.backfill.window: must be from 1m to 30d (Slurm's bf_window, "
          + "1 to 43200 minutes), not " + window);
    }
    if (maxJobTest < 1 || maxJobTest > Backfill.MAX_JOB_TEST) {
      throw new IllegalArgumentException("squall.backfill.max-job-test: must be from 1 to 1000000 (Slurm's "
          + "bf_max_job_test), not " + maxJobTest);
    }
    if (!Backfill.validResolution(resolution)) {
      throw new IllegalArgumentException("squall.backfill.resolution: must be whole seconds from 1s to 1h "
          + "(Slurm's bf_resolution), not " + resolution);
    }
    if (!continueAfterChanges.equals("true") && !continueAfterChanges.equals("false")) {
      throw new IllegalArgumentException("squall.backfill.continue: true or false, not '" + continueAfterChanges + "'");
    }
    return new Backfill(window, maxJobTest, resolution);
  }

  /** How far ahead a blocked job may be given a reservation. */
  public Duration getWindow() {
    return window;
  }

  public void setWindow(Duration window) {
    this.window = window;
  }

  /** How many jobs that cannot start now look for a reservation in one cycle. */
  public int getMaxJobTest() {
    return maxJobTest;
  }

  public void setMaxJobTest(int maxJobTest) {
    this.maxJobTest = maxJobTest;
  }

  /** The step reserved start times are rounded up to. */
  public Duration getResolution() {
    return resolution;
  }

  public void setResolution(Duration resolution) {
    this.resolution = resolution;
  }

  /** Slurm's bf_continue, as written: kept as text so that a misspelt value is refused, not read as false. */
  public String getContinue() {
    return continueAfterChanges;
  }

  public void setContinue(String value) {
    this.continueAfterChanges = value;
  }
}
