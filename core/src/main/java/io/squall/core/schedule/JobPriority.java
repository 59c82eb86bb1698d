package io.squall.core.schedule;

import io.squall.core.model.Job;
import io.squall.core.priority.MultifactorPriority;

/**
 * A pending job's priority in one partition it may run in, with the factors it is made of: one
 * line of sprio.
 */
public record JobPriority(Job job, String partition, MultifactorPriority.Factors factors, long priority) {}
