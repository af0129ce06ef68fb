package org.rampa.colocation;

import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import org.rampa.domain.GpuType;
import org.rampa.domain.Model;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.Placement;
import org.rampa.perf.share.ShareTier;
import org.rampa.perf.share.ShareTimeModel;
import org.rampa.perf.share.TierMargins;
import org.rampa.perf.share.SharedStage;

/**
 * A time model that answers each stage once and then from memory (see {@link ColocationProblem#memoized()}).
 * The model, GPU type and partitioning of a problem's stages are the same objects every time, so
 * they are keyed by identity: hashing those deep values on every lookup cost more than the answer.
 * An equal but distinct object only misses the memory (and is answered by the inner model).
 */
final class MemoizedTimeModel implements ShareTimeModel {

  private final ShareTimeModel inner;
  private final ConcurrentHashMap<Key, OptionalDouble> answers = new ConcurrentHashMap<>();

  MemoizedTimeModel(ShareTimeModel inner) {
    this.inner = inner;
  }

  @Override
  public OptionalDouble seconds(SharedStage stage) {
    return answers.computeIfAbsent(new Key(stage), k -> inner.seconds(stage));
  }

  @Override
  public ShareTier tier(SharedStage stage) {
    return inner.tier(stage);
  }

  @Override
  public TierMargins margins() {
    return inner.margins();
  }

  @Override
  public ShareTimeModel nominal() {
    return inner.margins().isNone() ? this : new MemoizedTimeModel(inner.nominal());
  }

  /** A stage with its model, GPU type and partitioning compared by identity. */
  private static final class Key {
    private final Model model;
    private final GpuType type;
    private final GpuPartitioning gpu;
    private final int from;
    private final int to;
    private final int batch;
    private final Placement placement;
    private final int hash;

    Key(SharedStage s) {
      model = s.model();
      type = s.type();
      gpu = s.gpu();
      from = s.from();
      to = s.to();
      batch = s.batch();
      placement = s.placement();
      int h = System.identityHashCode(model);
      h = 31 * h + System.identityHashCode(type);
      h = 31 * h + System.identityHashCode(gpu);
      h = 31 * h + from;
      h = 31 * h + to;
      h = 31 * h + batch;
      hash = 31 * h + placement.hashCode();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.model == model && k.type == type && k.gpu == gpu && k.from == from && k.to == to && k.batch == batch
          && k.placement.equals(placement);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }
}
