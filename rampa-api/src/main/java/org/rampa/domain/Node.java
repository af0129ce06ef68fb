package org.rampa.domain;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import org.immutables.value.Value;

/** A server: its id and the link its GPUs share (NVLink, PCIe ...). */
@Value.Immutable
@JsonSerialize(as = ImmutableNode.class)
@JsonDeserialize(as = ImmutableNode.class)
public abstract class Node {

  public abstract String id();

  public abstract Link intraLink();

  @Value.Check
  protected void check() {
    Invalid.requireNonBlank("node.id", id());
  }

  public static Node of(String id, Link intraLink) {
    return ImmutableNode.builder().id(id).intraLink(intraLink).build();
  }
}
