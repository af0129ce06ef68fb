package org.rampa.colocation;

import java.util.OptionalDouble;
import java.util.concurrent.ConcurrentHashMap;
import org.rampa.perf.share.ShareTimeModel;
import org.rampa.perf.share.SharedStage;

/** A time model that answers each stage once and then from memory (see {@link ColocationProblem#memoized()}). */
final class MemoizedTimeModel implements ShareTimeModel {

  private final ShareTimeModel inner;
  private final ConcurrentHashMap<SharedStage, OptionalDouble> answers = new ConcurrentHashMap<>();

  MemoizedTimeModel(ShareTimeModel inner) {
    this.inner = inner;
  }

  @Override
  public OptionalDouble seconds(SharedStage stage) {
    return answers.computeIfAbsent(stage, inner::seconds);
  }
}
