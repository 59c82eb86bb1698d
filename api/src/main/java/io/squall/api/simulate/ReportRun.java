package io.squall.api.simulate;

import java.util.List;
import java.util.Map;

/**
 * One configuration's what-if run as the HTML report draws it.
 *
 * @param name the configuration's name (its file name)
 * @param figures the headline figures ({@link WhatIfFigures}), in their order; {@code accounts}
 *     maps each account to {@code spent_usd} and, where it has a budget, {@code soft_usd} and
 *     {@code hard_usd}
 * @param samples the cluster over time, one sample per simulated interval, in time order
 * @param waitsSeconds every job's wait from submission to when it first ran (its nodes booted), in seconds
 */
public record ReportRun(String name, Map<String, Object> figures, List<Sample> samples, List<Long> waitsSeconds) {
  public ReportRun {
    figures = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(figures));
    samples = List.copyOf(samples);
    waitsSeconds = List.copyOf(waitsSeconds);
  }

  /**
   * The cluster at one instant of the run.
   *
   * @param hours simulated hours since the run's start
   * @param queued jobs submitted and not yet started (pending)
   * @param runningGpus GPUs held by running jobs
   * @param spotNodes nodes whose machine is spot (booting or up)
   * @param onDemandNodes nodes whose machine is on-demand (booting or up)
   * @param spentUsd each account's cost so far (its jobs' share of their nodes' bills)
   */
  public record Sample(double hours, int queued, int runningGpus, int spotNodes, int onDemandNodes,
      Map<String, Double> spentUsd) {
    public Sample {
      spentUsd = Map.copyOf(spentUsd);
    }
  }
}
