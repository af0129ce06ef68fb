package org.rampa.domain;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;

/**
 * The software that runs a model's batches, and so which published measurements time it
 * (docs/SHARING-MODEL.md, "Serving runtimes"). One runtime's times never stand in for another's:
 * ResNet-50 at batch 1 on an A100-80GB takes ~0.5 ms under TensorRT (MLPerf) and ~5 ms in
 * PyTorch eager mode (ParvaGPU), so a service is timed by its model's runtime alone, on every
 * GPU, placement and tier.
 */
public enum ServingRuntime {
  /**
   * The catalog's runtime: whole-GPU times from the roofline with the efficiencies and per-layer
   * overhead fitted to MLPerf Inference's TensorRT rows (and Helix's decode times); shares by the
   * analytic tier, whose floor is MuxServe's (the only measured shares of an optimised runtime
   * shipped): an assumption.
   */
  TENSORRT("tensorrt"),
  /**
   * PyTorch eager mode, as ParvaGPU measured it on A100-80GB MIG instances: those tables time it, the
   * 7g.80gb instance standing for the whole GPU; elsewhere the analytic tier with its own floor.
   */
  PYTORCH_EAGER("pytorch-eager"),
  /** MuxServe's LLM engine, as its A100-80GB MPS table measured LLaMA; elsewhere the analytic tier with MuxServe's floor. */
  MUXSERVE("muxserve");

  private final String id;

  ServingRuntime(String id) {
    this.id = id;
  }

  /** The name in JSON and on the command line ("tensorrt", "pytorch-eager", "muxserve"). */
  @JsonValue
  public String id() {
    return id;
  }

  /** The runtime named {@code id}, refused with the field, the value and the known names otherwise. */
  @JsonCreator
  public static ServingRuntime of(String id) {
    return Arrays.stream(values()).filter(r -> r.id.equals(id)).findFirst().orElseThrow(() -> Invalid.value(
        "runtime", id, "is not a serving runtime", "choose one of " + Arrays.stream(values()).map(ServingRuntime::id).toList()));
  }

  @Override
  public String toString() {
    return id;
  }
}
