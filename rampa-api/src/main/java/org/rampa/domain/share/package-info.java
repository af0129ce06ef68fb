/**
 * Parts of one GPU (docs/SHARING.md section 1): the closed set of placement kinds a holding may take on
 * a GPU (whole, MPS share, MIG slice, MIG slice with MPS processes, AMD CU mask, NPU partition
 * template), the partitioning a GPU type offers (MIG geometry, CU count, templates, MPS limits),
 * and the pure rules a ledger applies to the placements of one GPU: MIG layout legality as NVML
 * checks it, and MPS admission. Which GPU types have what lives in {@code org.rampa.catalog}.
 */
package org.rampa.domain.share;
