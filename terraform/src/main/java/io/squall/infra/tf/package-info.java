/**
 * The whole of Squall's use of CDKTF: resources, data sources and providers as generic elements
 * with raw Terraform attributes, and text escaped for Terraform strings. The cloud packages build
 * plain maps and names; moving off CDKTF (deprecated by HashiCorp on 2025-12-10) means writing
 * these few classes against a JSON writer instead.
 */
package io.squall.infra.tf;
