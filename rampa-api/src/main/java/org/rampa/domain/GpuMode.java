package org.rampa.domain;

/**
 * How one GPU is used (docs/SHARING.md section 1). A GPU's mode follows from its holdings and its
 * configured MIG layout; it changes only while nobody holds any part of the GPU.
 */
public enum GpuMode {
  /** Nobody holds it and it has no MIG layout: any placement may come. */
  FREE,
  /** One holding has it whole. */
  EXCLUSIVE,
  /** Contended shares: NVIDIA MPS shares, or AMD CU masks. */
  MPS,
  /** A MIG layout is configured; holdings are instances of it. */
  MIG,
  /** Hard NPU partition templates. */
  TEMPLATES
}
