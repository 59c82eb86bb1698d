/**
 * {@code squall infra synth}: the controller's configuration file in, one Terraform JSON file
 * ({@code cdk.tf.json}) out, for AWS or GCP. Contract: the same file the controller reads, with its
 * keys' meaning; bad input is refused before anything is written, in one line naming the file and
 * key; the output is plain Terraform JSON written through CDKTF's generic elements (no prebuilt
 * provider bindings), so that leaving CDKTF means replacing {@code tf/} alone.
 */
package io.squall.infra;
