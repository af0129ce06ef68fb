/**
 * The {@code rampa} command line (picocli): one class per command ({@code plan}, {@code split},
 * {@code simulate}, {@code catalog}, {@code demo}). Commands parse, delegate and print; the work
 * they start lives in the library and in {@code org.rampa.examples.experiment}.
 */
package org.rampa.examples.cli;
