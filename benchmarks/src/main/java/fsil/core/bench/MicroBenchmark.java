package fsil.core.bench;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JMH settings the micro-benchmarks of this module share: average time per operation, 3 warm-up and 5 measured
 * iterations of 2 s each, 2 forks (the defaults of benchmarks/README.md). JMH inherits these annotations; a
 * benchmark that needs another value declares that annotation itself, and each declares its own state and time
 * unit. It sits in a core package so that the benchmarks in the method packages may extend it.
 */
@BenchmarkMode(Mode.AverageTime)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public abstract class MicroBenchmark {
}
