package org.rampa.kubernetes;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.rampa.domain.Cluster;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Stage;
import org.rampa.domain.share.Placement;

/**
 * One service's plan, reserved in the ledger for all its stages at once (the gang): each stage
 * replica is a slot on one GPU of one node, for the pod that names that stage and replica. Which
 * slots have their pod bound is recomputed from the watched pods at every ledger rebuild; while any
 * slot is unbound, {@link #unboundSince()} says since when, and the reservation expires once that
 * is longer ago than the configured time to live.
 */
public final class Reservation {

  /** A stage replica's GPU: the node its pod must run on and the part of the GPU it holds. */
  public record Slot(int stage, int replica, String node, String gpu, Placement placement) {}

  private final PodContract.Service service;
  private final ServiceRequest request;
  private final Plan plan;
  private final Instant createdAt;
  private final Map<String, Slot> slots;
  private volatile Map<String, String> boundPods = Map.of();
  private volatile Instant unboundSince;

  Reservation(PodContract.Service service, ServiceRequest request, Plan plan, Cluster cluster, Instant createdAt) {
    this.service = service;
    this.request = request;
    this.plan = plan;
    this.createdAt = createdAt;
    this.unboundSince = createdAt;
    Map<String, Slot> s = new LinkedHashMap<>();
    List<Stage> stages = plan.stages();
    for (int i = 0; i < stages.size(); i++) {
      Stage stage = stages.get(i);
      for (int r = 0; r < stage.gpus().size(); r++) {
        String gpu = stage.gpus().get(r);
        s.put(key(i, r), new Slot(i, r, cluster.gpu(gpu).node(), gpu, stage.placement()));
      }
    }
    this.slots = java.util.Collections.unmodifiableMap(s);
  }

  static String key(int stage, int replica) {
    return stage + "/" + replica;
  }

  public PodContract.Service service() {
    return service;
  }

  public ServiceRequest request() {
    return request;
  }

  public Plan plan() {
    return plan;
  }

  public Instant createdAt() {
    return createdAt;
  }

  /** Slots by "stage/replica", in plan order. */
  public Map<String, Slot> slots() {
    return slots;
  }

  public Optional<Slot> slot(int stage, int replica) {
    return Optional.ofNullable(slots.get(key(stage, replica)));
  }

  /** The pod (namespace/name) bound to each slot that has one, by "stage/replica". */
  public Map<String, String> boundPods() {
    return boundPods;
  }

  /** Since when some slot has had no bound pod; empty while every slot has one. */
  public Optional<Instant> unboundSince() {
    return Optional.ofNullable(unboundSince);
  }

  /** Records which slots have bound pods (at a ledger rebuild, at {@code now}). */
  void bindings(Map<String, String> bound, Instant now) {
    boolean allBound = bound.size() == slots.size();
    if (allBound) {
      unboundSince = null;
    } else if (unboundSince == null) {
      unboundSince = now;
    }
    boundPods = Map.copyOf(bound);
  }
}
