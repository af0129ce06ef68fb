package org.rampa.heuristics.importance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MemoizedTest {

  @Test
  void computesOnceOnFirstUseAndNotBefore() {
    AtomicInteger calls = new AtomicInteger();
    Memoized<String> value = Memoized.of(() -> "v" + calls.incrementAndGet());
    assertThat(calls).hasValue(0);
    assertThat(value.get()).isEqualTo("v1");
    assertThat(value.get()).isEqualTo("v1");
    assertThat(calls).hasValue(1);
  }

  @Test
  void aComputationThatThrowsIsRetried() {
    AtomicInteger calls = new AtomicInteger();
    Memoized<Integer> value = Memoized.of(() -> {
      if (calls.incrementAndGet() == 1) {
        throw new IllegalStateException("first call fails");
      }
      return calls.get();
    });
    assertThatThrownBy(value::get).hasMessage("first call fails");
    assertThat(value.get()).isEqualTo(2);
    assertThat(value.get()).isEqualTo(2);
  }

  @Test
  void threadsThatAskTogetherShareOneComputation() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    Memoized<Object> value = Memoized.of(() -> {
      calls.incrementAndGet();
      return new Object();
    });
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Object>> answers = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        answers.add(pool.submit(() -> {
          start.await();
          return value.get();
        }));
      }
      start.countDown();
      Object first = answers.get(0).get();
      for (Future<Object> answer : answers) {
        assertThat(answer.get()).isSameAs(first);
      }
      assertThat(calls).hasValue(1);
    } finally {
      pool.shutdownNow();
    }
  }
}
