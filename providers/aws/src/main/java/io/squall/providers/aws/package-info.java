/**
 * The AWS EC2 provider: Squall nodes as EC2 instances (H100 {@code p5.48xlarge} and the like),
 * spot or on-demand, in cluster placement groups, through the AWS SDK for Java v2.
 *
 * <p>The contract ({@link io.squall.core.provider.NodeProvider}), as EC2 does it:
 * <ul>
 *   <li>A launch is one {@code RunInstances} with {@code MinCount} = the request's
 *       {@code minCount} (a gang's size) and {@code MaxCount} = its node count: EC2 starts at
 *       least {@code MinCount} or none. The idempotency token is the {@code ClientToken}: EC2
 *       answers a repeat with the first reservation.</li>
 *   <li>An EFA instance type (p4d, p5 and the like: {@link io.squall.providers.aws.AwsSettings#efaInterfaces})
 *       launches with an EFA interface on each network card ({@link io.squall.providers.aws.EfaInterfaces}),
 *       the subnet and security groups on the interfaces; any other type with one plain interface.</li>
 *   <li>Every instance carries the tags {@code squall:cluster}, {@code squall:partition},
 *       {@code squall:launch}, {@code squall:placement-group} and, once started,
 *       {@code squall:node} and {@code Name}; {@link io.squall.core.provider.NodeProvider#list}
 *       reads the cluster back from them alone, so a restarted controller reconciles from EC2.</li>
 *   <li>Each machine finds its node by its launch index ({@code ami-launch-index} from IMDSv2) in
 *       the user-data script that names every node of its launch.</li>
 *   <li>EC2's error codes become {@link io.squall.core.provider.ProviderException.Kind}s; the SDK
 *       does not retry, the caller's one policy does.</li>
 *   <li>The interruption rate published for a spot offering is the AWS Spot Instance Advisor's
 *       bucket for its type and region, from the snapshot bundled with this module
 *       ({@link io.squall.providers.aws.SpotAdvisor}), unless configured per type; 0 when unknown.</li>
 *   <li>Closing the provider closes the client; instances keep running.</li>
 * </ul>
 */
package io.squall.providers.aws;
