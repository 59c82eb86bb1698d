/**
 * A Squall cluster's AWS infrastructure, one small class per part (network, security groups,
 * placement groups, launch templates, roles, interruption events, bucket, database, controller).
 * The controller's role is {@link io.squall.infra.aws.ControllerPolicy}: exactly the EC2, SQS and
 * IAM actions {@code providers/aws} calls, which IamCoverageTest checks against the provider's
 * bytecode.
 */
package io.squall.infra.aws;
