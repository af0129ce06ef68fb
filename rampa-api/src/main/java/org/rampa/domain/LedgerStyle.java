package org.rampa.domain;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.immutables.value.Value;

/**
 * {@link ValueStyle} with maps kept as given, for {@link ClusterState}: the immutable state would
 * otherwise copy its whole ledger for every admission and departure; its check turns any other map
 * into a {@link LedgerMap} once instead. A meta-annotation, as {@link ValueStyle}, so that modules
 * reading the state's class file without Immutables on their class path see no unknown annotation.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.CLASS)
// no visibility: SAME makes the implementation public as ClusterState is, and an enum constant here
// made javadoc of modules without Immutables on their class path warn
@Value.Style(
    allowedClasspathAnnotations = {Override.class},
    jdkOnly = true,
    builtinContainerAttributes = false)
public @interface LedgerStyle {}
