/**
 * Load levels: Gatling's injection read back as a model ({@link Injection}, {@link
 * InjectionSchedule}), the steady levels of a run and their figures ({@link LevelTracker}, {@link
 * LoadLevel}, {@link LevelResult}), saturation ({@link Saturation}), the sweep's steps ({@link
 * SweepStep}), the client's schedule lag ({@link ScheduleLag}) and CPU share ({@link CpuSamples}).
 *
 * <p>Knows nothing of HTTP or Gatling's classes: injection steps come in as plain values, instants
 * as milliseconds or {@link System#nanoTime()} nanoseconds handed in by the caller.
 */
package io.github.gatlingllm.levels;
