package fsil.notebook.kernel;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rapaio.jupyter.kernel.channels.LoopThread;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher's watchdog against a stand-in of the kernel's LoopThread (same members, same start-up race; the
 * real members are checked by KernelApiTest, the whole launcher with the real kernel by notebooks/kernel-starts.sh).
 */
class RapaioLauncherTest {
    /** A channel as the watchdog sees it: an object with a loopThread field. */
    static final class FakeChannel {
        private volatile LoopThread loopThread;
    }

    /** Channels as the watchdog sees them: the shell, control and heartbeat fields. */
    static final class FakeChannels {
        private final FakeChannel shell = new FakeChannel();
        private final FakeChannel control = new FakeChannel();
        private final FakeChannel heartbeat = new FakeChannel();
    }

    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(log, true, StandardCharsets.UTF_8);
    private final List<LoopThread> started = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        for (LoopThread t : started) {
            t.shutdown();
            t.join(5_000);
        }
    }

    private static void setRunning(LoopThread t, boolean value) throws ReflectiveOperationException {
        Field f = LoopThread.class.getDeclaredField("running");
        f.setAccessible(true);
        f.setBoolean(t, value);
    }

    private static boolean running(LoopThread t) throws ReflectiveOperationException {
        Field f = LoopThread.class.getDeclaredField("running");
        f.setAccessible(true);
        return f.getBoolean(t);
    }

    /** A loop thread in the state the race leaves: it ran, saw running == false, ended; then running became true. */
    private static LoopThread lostTheRace(String name, Runnable body) throws Exception {
        LoopThread t = new LoopThread(name, 5, body);
        t.start();          // sets running = true after Thread.start()...
        setRunning(t, false);
        t.join(5_000);      // ...so force the losing order: the thread ends on its first check
        assertEquals(Thread.State.TERMINATED, t.getState());
        setRunning(t, true); // what start() writes after the thread has already gone
        return t;
    }

    /** A loop thread that runs (running set before start, so that the stand-in's race cannot end it). */
    private LoopThread alive(String name, Runnable body) throws ReflectiveOperationException {
        LoopThread t = new LoopThread(name, 5, body);
        setRunning(t, true);
        t.start();
        started.add(t);
        return t;
    }

    private RapaioLauncher.Watchdog watchdog(FakeChannels channels) throws ReflectiveOperationException {
        return new RapaioLauncher.Watchdog(FakeChannels.class, channels, getClass().getClassLoader(), err);
    }

    @Test
    void aLoopThreadThatLostTheStartUpRaceIsReplacedAndItsBodyRuns() throws Exception {
        FakeChannels channels = new FakeChannels();
        CountDownLatch shellBody = new CountDownLatch(3);
        LoopThread dead = lostTheRace("Shell-0", shellBody::countDown);
        channels.shell.loopThread = dead;
        channels.control.loopThread = alive("Shell-0", () -> { });
        channels.heartbeat.loopThread = alive("Heartbeat-0", () -> { });
        LoopThread control = channels.control.loopThread;
        LoopThread heartbeat = channels.heartbeat.loopThread;

        RapaioLauncher.Watchdog w = watchdog(channels);
        for (int i = 0; i < 3; i++) {
            w.repair(i);
        }
        LoopThread fresh = channels.shell.loopThread;
        started.add(fresh);
        assertNotSame(dead, fresh, "the dead shell loop is replaced");
        assertEquals("Shell-0", fresh.getName());
        assertTrue(shellBody.await(5, TimeUnit.SECONDS), "the replacement runs the shell's loop body");
        assertTrue(fresh.isAlive() && running(fresh));
        assertSame(control, channels.control.loopThread, "a running loop is left alone");
        assertSame(heartbeat, channels.heartbeat.loopThread, "a running loop is left alone");
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("the shell channel's loop thread 'Shell-0' had ended"),
                log.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aLoopThreadThatWasShutDownIsNotReplaced() throws Exception {
        FakeChannels channels = new FakeChannels();
        for (FakeChannel c : List.of(channels.shell, channels.control, channels.heartbeat)) {
            LoopThread t = new LoopThread("x", 5, () -> { });
            setRunning(t, true);
            t.start();
            t.shutdown();
            t.join(5_000);
            c.loopThread = t;
        }
        LoopThread shell = channels.shell.loopThread;
        RapaioLauncher.Watchdog w = watchdog(channels);
        for (int i = 0; i < 3; i++) {
            w.repair(i);
        }
        assertSame(shell, channels.shell.loopThread);
        assertEquals("", log.toString(StandardCharsets.UTF_8));
        w.joinLoops();      // returns: every loop has ended on purpose
    }

    @Test
    void joinLoopsRepairsFirstSoThatAKernelWhoseLoopsAllLostDoesNotExit() throws Exception {
        FakeChannels channels = new FakeChannels();
        channels.shell.loopThread = lostTheRace("Shell-0", () -> { });
        channels.control.loopThread = lostTheRace("Shell-0", () -> { });
        channels.heartbeat.loopThread = lostTheRace("Heartbeat-0", () -> { });
        RapaioLauncher.Watchdog w = watchdog(channels);
        Thread joiner = new Thread(() -> {
            try {
                w.joinLoops();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        joiner.start();
        joiner.join(300);
        assertTrue(joiner.isAlive(), "the replacements keep the kernel running");
        for (FakeChannel c : List.of(channels.shell, channels.control, channels.heartbeat)) {
            assertTrue(c.loopThread.isAlive());
            c.loopThread.shutdown();  // what the kernel's shutdown request does
        }
        joiner.join(5_000);
        assertEquals(Thread.State.TERMINATED, joiner.getState(), "joinLoops returns after the shutdown");
    }

    @Test
    void theKernelsClasspathLinesBecomeOneLineAndOtherOutputPassesThrough() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            RapaioLauncher.initialise(NoisyKernelMain.class.getName(), getClass().getClassLoader(), err);
        } finally {
            System.setOut(saved);
        }
        assertEquals("something else the kernel says\na last line without its end", out.toString(StandardCharsets.UTF_8));
        String summary = log.toString(StandardCharsets.UTF_8);
        assertEquals(1, summary.lines().count(), summary);
        assertTrue(summary.contains(NoisyKernelMain.JARS + " jars on the notebook classpath (from 1 RJK_CLASSPATH entry;"),
                summary);
        assertSame(saved, System.out);
    }
}
