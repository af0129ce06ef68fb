package org.rampa.domain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A ledger read per GPU: by cluster position, the holdings on each GPU in allocation order and the
 * services holding it in ledger order, each once. Built from the whole ledger, or from the
 * predecessor's index by the one allocation added or released: copying two arrays of references is
 * far cheaper than rehashing thousands of holdings for every new state of a large cluster.
 * Immutable once built.
 */
final class LedgerIndex {

  private final List<Holding>[] holdings;
  private final List<String>[] services;
  /** GPU ids the ledger names that the cluster lacks, for the state's check to report. */
  final List<String> unknownGpus;

  private LedgerIndex(List<Holding>[] holdings, List<String>[] services, List<String> unknownGpus) {
    this.holdings = holdings;
    this.services = services;
    this.unknownGpus = unknownGpus;
  }

  @SuppressWarnings("unchecked")
  static LedgerIndex of(Cluster cluster, Map<String, Allocation> allocations) {
    int n = cluster.gpus().size();
    List<Holding>[] holdings = new List[n];
    List<String>[] services = new List[n];
    List<String> unknown = new ArrayList<>();
    for (Map.Entry<String, Allocation> e : allocations.entrySet()) {
      for (Holding h : e.getValue().holdings()) {
        int i = cluster.indexOf(h.gpu());
        if (i < 0) {
          unknown.add(h.gpu());
          continue;
        }
        holdings[i] = appended(holdings[i], h);
        List<String> s = services[i];
        // while one allocation is read, its id is the last entry of every GPU it already holds
        if (s == null || !s.get(s.size() - 1).equals(e.getKey())) {
          services[i] = appended(s, e.getKey());
        }
      }
    }
    return new LedgerIndex(holdings, services, List.copyOf(unknown));
  }

  /** This index with {@code allocation} added last (as {@link #of} would build it with the allocation at the ledger's end). */
  LedgerIndex plus(Cluster cluster, Allocation allocation) {
    List<Holding>[] h = holdings.clone();
    List<String>[] s = services.clone();
    for (Holding holding : allocation.holdings()) {
      int i = cluster.indexOf(holding.gpu());
      h[i] = appended(h[i], holding);
      if (s[i] == null || !s[i].get(s[i].size() - 1).equals(allocation.serviceId())) {
        s[i] = appended(s[i], allocation.serviceId());
      }
    }
    return new LedgerIndex(h, s, unknownGpus);
  }

  /** This index without {@code allocation}, a ledger entry: the rest keep their order. */
  LedgerIndex minus(Cluster cluster, Allocation allocation) {
    List<Holding>[] h = holdings.clone();
    List<String>[] s = services.clone();
    for (Holding holding : allocation.holdings()) {
      int i = cluster.indexOf(holding.gpu());
      if (h[i] == null) {
        continue; // a GPU the allocation holds twice: emptied at its first holding
      }
      List<Holding> rest = new ArrayList<>(h[i].size());
      for (Holding other : h[i]) {
        if (!containsIdentity(allocation.holdings(), other)) {
          rest.add(other);
        }
      }
      h[i] = rest.isEmpty() ? null : List.copyOf(rest);
      List<String> others = new ArrayList<>(s[i]);
      others.remove(allocation.serviceId());
      s[i] = others.isEmpty() ? null : List.copyOf(others);
    }
    return new LedgerIndex(h, s, unknownGpus);
  }

  private static boolean containsIdentity(List<Holding> list, Holding h) {
    for (Holding x : list) {
      if (x == h) {
        return true;
      }
    }
    return false;
  }

  private static <T> List<T> appended(List<T> list, T item) {
    if (list == null) {
      return List.of(item);
    }
    Object[] a = list.toArray(new Object[list.size() + 1]);
    a[list.size()] = item;
    @SuppressWarnings("unchecked")
    List<T> out = (List<T>) List.of(a);
    return out;
  }

  /** The holdings on the GPU at cluster position {@code i}, in allocation order. */
  List<Holding> holdingsAt(int i) {
    List<Holding> h = holdings[i];
    return h == null ? List.of() : h;
  }

  /** The services holding the GPU at cluster position {@code i}, in ledger order. */
  List<String> servicesAt(int i) {
    List<String> s = services[i];
    return s == null ? List.of() : s;
  }

  /** Cluster positions of the GPUs somebody holds, ascending. */
  int[] heldPositions() {
    int[] out = new int[holdings.length];
    int n = 0;
    for (int i = 0; i < holdings.length; i++) {
      if (holdings[i] != null) {
        out[n++] = i;
      }
    }
    return Arrays.copyOf(out, n);
  }
}
