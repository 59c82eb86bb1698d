package io.squall.providers.aws;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.ec2.model.InstanceNetworkInterfaceSpecification;

/**
 * The network interfaces a launch of an EFA instance type asks for: one per network card, so that
 * NCCL gets the whole fabric (a p5.48xlarge with only its primary interface has 1 of its 32 EFA
 * devices, and multi-node training runs at a fraction of its bandwidth).
 *
 * <p>The layout is the EC2 User Guide's for P5 ("Maximize network bandwidth ... with multiple
 * network cards", use case 1): card 0, device 0 is the primary interface, an {@code efa} one (EFA
 * with ENA: the instance's one private address, and an EFA device); every other card gets an
 * {@code efa-only} interface as device 1. EFA-only interfaces take no IP address, so a 64-node
 * gang takes 64 addresses of its subnet instead of 2048, and Linux is not left routing over 32
 * interfaces. Every interface is in the launch's subnet and security groups (EFA traffic only
 * flows between interfaces whose group lets all traffic in and out among itself) and goes with the
 * instance.
 */
final class EfaInterfaces {
  static final String PRIMARY_TYPE = "efa";
  static final String SECONDARY_TYPE = "efa-only";

  private EfaInterfaces() {}

  /**
   * The interfaces of an instance with {@code cards} network cards (at least 1) in {@code subnet}
   * with {@code securityGroups} (none: the VPC's default group), in card order.
   */
  static List<InstanceNetworkInterfaceSpecification> of(int cards, String subnet, List<String> securityGroups) {
    if (cards < 1) {
      throw new IllegalArgumentException("an EFA launch needs at least one network card, not " + cards);
    }
    List<InstanceNetworkInterfaceSpecification> out = new ArrayList<>(cards);
    for (int card = 0; card < cards; card++) {
      InstanceNetworkInterfaceSpecification.Builder i = InstanceNetworkInterfaceSpecification.builder()
          .networkCardIndex(card)
          .deviceIndex(card == 0 ? 0 : 1)
          .interfaceType(card == 0 ? PRIMARY_TYPE : SECONDARY_TYPE)
          .subnetId(subnet)
          .deleteOnTermination(true);
      if (!securityGroups.isEmpty()) {
        i.groups(securityGroups);
      }
      out.add(i.build());
    }
    return List.copyOf(out);
  }
}
