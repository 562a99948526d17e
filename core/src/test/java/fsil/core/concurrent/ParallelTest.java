package fsil.core.concurrent;

import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ParallelTest {

    @Test
    void runsEveryTaskOnceAndWaits() {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            AtomicIntegerArray runs = new AtomicIntegerArray(100);
            Parallel.forEach(pool, 100, i -> runs.incrementAndGet(i));
            for (int i = 0; i < 100; i++) {
                assertEquals(1, runs.get(i), "task " + i);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void singleAndNoTasksRunInTheCaller() {
        Thread caller = Thread.currentThread();
        Parallel.forEach(r -> {
            throw new AssertionError("a single task must not be submitted");
        }, 1, i -> assertSame(caller, Thread.currentThread()));
        AtomicInteger count = new AtomicInteger();
        Parallel.forEach(Runnable::run, 0, i -> count.incrementAndGet());
        assertEquals(0, count.get());
    }

    @Test
    void lowestNumberedFailureIsRethrownUnwrappedAfterAllTasksFinished() {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            AtomicInteger finished = new AtomicInteger();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> Parallel.forEach(pool, 20, i -> {
                finished.incrementAndGet();
                if (i == 7 || i == 3 || i == 15) {
                    throw new IllegalStateException("task " + i);
                }
            }));
            assertEquals("task 3", e.getMessage());
            assertEquals(20, finished.get());
            AssertionError err = assertThrows(AssertionError.class, () -> Parallel.forEach(pool, 4, i -> {
                if (i == 2) {
                    throw new AssertionError("boom");
                }
            }));
            assertEquals("boom", err.getMessage());
        } finally {
            pool.shutdownNow();
        }
    }
}
