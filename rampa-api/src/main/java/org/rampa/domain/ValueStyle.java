package org.rampa.domain;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.immutables.value.Value;

/** The one Immutables style of the project's value packages. */
@Target({ElementType.PACKAGE, ElementType.TYPE})
@Retention(RetentionPolicy.CLASS)
@Value.Style(
    visibility = Value.Style.ImplementationVisibility.PUBLIC,
    allowedClasspathAnnotations = {Override.class},
    jdkOnly = true)
public @interface ValueStyle {}
