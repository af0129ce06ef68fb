package org.rampa.catalog;

import java.util.ArrayList;
import java.util.List;
import org.rampa.domain.Layer;

/**
 * A transformer's published configuration and the per-block formulas of the model catalog:
 * parameters per block, dense FLOPs (2 per multiply-accumulate, per active parameter and token),
 * attention FLOPs {@code 4·h·context} per token, KV cache {@code 2·H_kv·d} elements per token,
 * residual stream {@code h} elements per token at every block boundary.
 */
record TransformerConfig(
    String name,
    Family family,
    int hidden,
    int blocks,
    int heads,
    int kvHeads,
    int ffn,
    int vocab,
    int maxPositions,
    int experts,
    int activeExperts,
    int defaultSequence,
    double publishedParameters,
    String source) {

  /** Architectural conventions that change the parameter count. */
  enum Family {
    BERT, GPT2, OPT, LLAMA, MIXTRAL, VIT;

    boolean biased() {
      return this == BERT || this == GPT2 || this == OPT || this == VIT;
    }

    boolean swiglu() {
      return this == LLAMA || this == MIXTRAL;
    }
  }

  private static final int B = ModelCatalog.BYTES_PER_ELEMENT;
  private static final int VIT_PATCH = 16;
  private static final int VIT_PATCHES = 196;
  private static final int VIT_CLASSES = 1000;

  boolean isDecoder() {
    return family != Family.BERT && family != Family.VIT;
  }

  int headDim() {
    return hidden / heads;
  }

  private double attentionParams() {
    double kv = 2.0 * hidden * kvHeads * headDim();
    double p = 2.0 * hidden * hidden + kv;
    return family.biased() ? p + 2.0 * hidden + 2.0 * kvHeads * headDim() : p;
  }

  private double expertParams() {
    return family.swiglu() ? 3.0 * hidden * ffn : 2.0 * hidden * ffn + ffn + hidden;
  }

  private double normParams() {
    return family.biased() ? 4.0 * hidden : 2.0 * hidden;
  }

  double blockParams() {
    double router = experts > 1 ? (double) hidden * experts : 0;
    return attentionParams() + experts * expertParams() + router + normParams();
  }

  double activeBlockParams() {
    return attentionParams() + activeExperts * expertParams() + normParams();
  }

  private double embeddingParams() {
    return switch (family) {
      case BERT -> (double) vocab * hidden + (double) maxPositions * hidden + 2.0 * hidden + 2.0 * hidden;
      case GPT2, OPT -> (double) vocab * hidden + (double) maxPositions * hidden;
      case LLAMA, MIXTRAL -> (double) vocab * hidden;
      case VIT -> 3.0 * VIT_PATCH * VIT_PATCH * hidden + hidden + hidden + (double) maxPositions * hidden;
    };
  }

  /**
   * Final norm and output head. GPT-2 and OPT tie the LM head to the embedding, so its weights are
   * counted once, with the embedding; a pipeline that puts the head on another stage than the
   * embedding needs a copy there (V·h·2 bytes) that this block table does not charge.
   */
  private double headParams() {
    return switch (family) {
      case BERT -> 0;
      case GPT2, OPT -> 2.0 * hidden;
      case LLAMA, MIXTRAL -> hidden + (double) vocab * hidden;
      case VIT -> 2.0 * hidden + (double) hidden * VIT_CLASSES + VIT_CLASSES;
    };
  }

  /**
   * The layer chain: embedding, blocks, head. {@code tokens} is the sequence length (prefill) or
   * the context length (decode, one new token per sample).
   */
  List<Layer> layers(int tokens, boolean decode) {
    int newTokens = decode ? 1 : tokens;
    List<Layer> layers = new ArrayList<>();
    double embedFlops = family == Family.VIT ? 2.0 * 3 * VIT_PATCH * VIT_PATCH * hidden * VIT_PATCHES : 0;
    layers.add(Layer.builder()
        .name("embed")
        .flopsPerSample(embedFlops)
        .weightBytes((long) (embeddingParams() * B))
        .outputBytesPerSample((long) newTokens * hidden * B)
        .build());
    long kvPerToken = isDecoder() ? 2L * kvHeads * headDim() * B : 0;
    for (int i = 0; i < blocks; i++) {
      double dense = 2.0 * activeBlockParams() * newTokens;
      double attention = decode ? 4.0 * hidden * tokens : 4.0 * hidden * (double) tokens * tokens;
      layers.add(Layer.builder()
          .name("block" + i)
          .flopsPerSample(dense + attention)
          .weightBytes((long) (blockParams() * B))
          .outputBytesPerSample((long) newTokens * hidden * B)
          // the largest transient tensor of a block is the FFN's inner activation
          .workingBytesPerSample((long) newTokens * ffn * activeExperts * B)
          .stateBytesPerSample(kvPerToken * tokens)
          .build());
    }
    double headParams = headParams();
    if (headParams > 0) {
      int outputs = family == Family.VIT ? VIT_CLASSES : vocab;
      // logits are needed only for the last position of a sequence at inference
      double headFlops = family == Family.VIT ? 2.0 * hidden * VIT_CLASSES : 2.0 * hidden * vocab;
      layers.add(Layer.builder()
          .name("head")
          .flopsPerSample(headFlops)
          .weightBytes((long) (headParams * B))
          .outputBytesPerSample((long) outputs * B)
          .build());
    }
    return layers;
  }
}
