/**
 * GPUs over time: what each sample of the fleet counts (allocated, idle, powered down, down) and
 * the bounded history the dashboard draws. Pure: the controller hands in node states and its
 * clock's instants; nothing here reads a clock or keeps anything beyond its bound.
 */
package io.squall.core.utilisation;
