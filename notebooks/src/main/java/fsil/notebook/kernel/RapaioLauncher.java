package fsil.notebook.kernel;

import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.LogManager;

/**
 * Starts rapaio-jupyter-kernel (3.0.1) without its start-up races; the main class of the kernelspec that
 * {@code notebooks/install-kernel.sh} writes ({@code java -cp <kernel jar>:<launcher jar>
 * fsil.notebook.kernel.RapaioLauncher <connection file>}).
 *
 * <p>The kernel serves each of its shell, control and heartbeat sockets from a {@code LoopThread} that runs
 * {@code while (running) { body; sleep }}. Two races at start-up leave a socket without its thread, and a socket
 * without its thread never answers: with the shell socket's, the front end waits for its {@code kernel_info_reply}
 * for ever (a notebook stuck at "Connecting..."), while the heartbeat keeps the kernel looking alive.
 * <ol>
 *   <li>{@code LoopThread.start()} calls {@code Thread.start()} first and sets {@code running = true} after it: a
 *   new thread that gets a core before its creator finishes {@code start()} reads {@code running == false} and
 *   ends at once, silently. It happens more often the busier the machine (the usual cause of the hangs). When
 *   all three threads lose, the kernel's main thread, which only joins them, returns and the JVM exits right after
 *   binding its sockets ("Kernel died before replying to kernel_info").</li>
 *   <li>{@code Channels.connect} binds the sockets one by one (each shell, control and heartbeat bind starts its
 *   thread) and only afterwards creates the map those threads look message handlers up in. A request read
 *   before that (a front end sends {@code kernel_info_request} as soon as the port accepts connections) makes the
 *   lookup throw a {@code NullPointerException} outside the loop's try block, which ends the thread.</li>
 * </ol>
 * Which socket binds first changes from run to run ({@code Set.of} iteration order).
 *
 * <p>This launcher does what the kernel's {@code MainApp.runKernel} does (read the logging configuration and the
 * connection file, build {@code Channels}, {@code connect(MainApp.kernel)}, {@code joinUntilClose()}), with two
 * changes. It calls {@code connect} while holding the monitors of the shell and the control channel: their threads
 * read a message through the channel's {@code synchronized readMessage()}, so a message that arrives during
 * {@code connect} waits until the handler map exists (race 2). And a watchdog replaces a loop thread that has
 * ended while its {@code running} flag is still set, which only an unexpected end does (the kernel's own
 * shutdown clears the flag first), with a new {@code LoopThread} for the same body whose flag is set before it
 * starts (race 1). Each replacement is reported on standard error (the kernel log). Everything is reached
 * reflectively (fsil depends on no kernel); the members used are checked against the published jar by
 * {@code KernelApiTest}. Any other argument list ({@code -i} to install, ...) goes to the kernel's own main.
 *
 * <p>{@code -Dfsil.kernel.guard=false} starts the kernel exactly as its own main does: the baseline that
 * {@code notebooks/kernel-starts.sh} measures the races with.
 */
public final class RapaioLauncher {
    static final String MAIN = "org.rapaio.jupyter.kernel.MainApp";
    static final String PACKAGE = "org.rapaio.jupyter.kernel.";
    /** The channels of {@code Channels} that serve their socket from a loop thread. */
    static final List<String> LOOP_CHANNELS = List.of("shell", "control", "heartbeat");
    /** Watchdog period during the first seconds (when the races happen) and afterwards. */
    static final long FAST_MILLIS = 5;
    static final long FAST_PHASE_MILLIS = 10_000;
    static final long SLOW_MILLIS = 1_000;

    private RapaioLauncher() {
    }

    public static void main(String[] args) throws Throwable {
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, Charset.defaultCharset());
        ClassLoader loader = RapaioLauncher.class.getClassLoader();
        boolean guard = !"false".equals(System.getProperty("fsil.kernel.guard"));
        try {
            initialise(MAIN, loader, err);
            if (args.length != 1 || args[0].startsWith("-") || !guard) {
                Class.forName(MAIN, true, loader).getMethod("main", String[].class).invoke(null, (Object) args);
                return;
            }
            run(loader, Path.of(args[0]), err);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * Initialises the kernel's main class (its static initialiser creates the kernel, which adds the notebook
     * classpath, {@code RJK_CLASSPATH}, to JShell) with the kernel's two lines per classpath entry on standard output
     * ("Parsing classpath: GLOB", then "Add JAR to classpath" for every jar: 58 lines for fsil's 57 jars at every
     * kernel start) replaced by one line on {@code err}. Every other line reaches standard output unchanged; the jars
     * are added as before. {@code -Dfsil.kernel.classpathLog=full} keeps the kernel's own lines.
     */
    static void initialise(String mainClass, ClassLoader loader, PrintStream err) throws ClassNotFoundException {
        if ("full".equals(System.getProperty("fsil.kernel.classpathLog"))) {
            Class.forName(mainClass, true, loader);
            return;
        }
        PrintStream out = System.out;
        ClasspathLines lines = new ClasspathLines(out);
        System.setOut(new PrintStream(lines, true, Charset.defaultCharset()));
        try {
            Class.forName(mainClass, true, loader);
        } finally {
            System.out.flush();
            lines.flushPartial();
            System.setOut(out);
        }
        if (lines.globs > 0) {
            err.println("fsil kernel launcher: " + lines.jars + " jar" + (lines.jars == 1 ? "" : "s")
                    + " on the notebook classpath (from " + lines.globs + " RJK_CLASSPATH entr"
                    + (lines.globs == 1 ? "y" : "ies") + "; -Dfsil.kernel.classpathLog=full lists them)");
        }
    }

    /**
     * Standard output during the kernel's creation, line by line: drops and counts the kernel's classpath lines,
     * passes every other line through.
     */
    static final class ClasspathLines extends OutputStream {
        static final String PARSING = "Parsing classpath: ";
        static final String ADD = "Add ";
        static final String TO_CLASSPATH = " to classpath";
        private final PrintStream target;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();
        int globs;
        int jars;

        ClasspathLines(PrintStream target) {
            this.target = target;
        }

        @Override
        public synchronized void write(int b) {
            line.write(b);
            if (b == '\n') {
                endLine();
            }
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            for (int i = off; i < off + len; i++) {
                write(b[i]);
            }
        }

        private void endLine() {
            String text = line.toString(Charset.defaultCharset()).stripTrailing();
            if (text.startsWith(PARSING)) {
                globs++;
            } else if (text.startsWith(ADD) && text.endsWith(TO_CLASSPATH)) {
                jars++;
            } else {
                target.write(line.toByteArray(), 0, line.size());
                target.flush();
            }
            line.reset();
        }

        /** Passes on a last line without its end of line. */
        synchronized void flushPartial() {
            if (line.size() > 0) {
                target.write(line.toByteArray(), 0, line.size());
                target.flush();
                line.reset();
            }
        }
    }

    /** The kernel's runKernel, with connect() holding the shell and control monitors, plus the watchdog. */
    static void run(ClassLoader loader, Path connectionFile, PrintStream err) throws Exception {
        Class<?> main = Class.forName(MAIN, true, loader);   // its static initialiser creates the kernel
        try (InputStream logging = main.getClassLoader().getResourceAsStream("logging.properties")) {
            if (logging != null) {
                LogManager.getLogManager().readConfiguration(logging);
            }
        }
        if (!Files.isRegularFile(connectionFile)) {
            throw new IllegalArgumentException("Connection file '" + connectionFile + "' isn't a file.");
        }
        String json = new String(Files.readAllBytes(connectionFile), Charset.defaultCharset());
        Class<?> propsClass = Class.forName(PACKAGE + "core.ConnectionProperties", true, loader);
        Object props = Class.forName(PACKAGE + "core.Transform", true, loader)
                .getMethod("fromJson", String.class, Class.class).invoke(null, json, propsClass);
        Class<?> channelsClass = Class.forName(PACKAGE + "channels.Channels", true, loader);
        Object channels = channelsClass.getConstructor(propsClass).newInstance(props);
        Object kernel = main.getField("kernel").get(null);
        Method connect = channelsClass.getMethod("connect", kernel.getClass());
        Watchdog watchdog = new Watchdog(channelsClass, channels, loader, err);
        Object shell = field(channelsClass, "shell").get(channels);
        Object control = field(channelsClass, "control").get(channels);
        synchronized (shell) {
            synchronized (control) {
                connect.invoke(channels, kernel);
            }
        }
        watchdog.start();
        channelsClass.getMethod("joinUntilClose").invoke(channels);
        // joinUntilClose() joined the threads present when it looked; a replacement may still be running.
        watchdog.joinLoops();
    }

    static Field field(Class<?> type, String name) throws NoSuchFieldException {
        Field f = type.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }

    /** Replaces loop threads that ended unexpectedly (see the class comment). */
    static final class Watchdog extends Thread {
        private final Object[] channels;
        private final Field[] loopFields;
        private final Field running;
        private final Field sleep;
        private final Field body;
        private final Constructor<?> newLoop;
        private final PrintStream err;

        Watchdog(Class<?> channelsClass, Object channelsObject, ClassLoader loader, PrintStream err)
                throws ReflectiveOperationException {
            super("fsil-kernel-watchdog");
            setDaemon(true);
            this.err = err;
            channels = new Object[LOOP_CHANNELS.size()];
            loopFields = new Field[LOOP_CHANNELS.size()];
            for (int i = 0; i < channels.length; i++) {
                channels[i] = field(channelsClass, LOOP_CHANNELS.get(i)).get(channelsObject);
                loopFields[i] = field(channels[i].getClass(), "loopThread");
            }
            Class<?> loop = Class.forName(PACKAGE + "channels.LoopThread", true, loader);
            running = field(loop, "running");
            sleep = field(loop, "sleep");
            body = field(loop, "loopBody");
            newLoop = loop.getConstructor(String.class, long.class, Runnable.class);
        }

        @Override
        public void run() {
            long start = System.nanoTime();
            try {
                while (true) {
                    for (int i = 0; i < channels.length; i++) {
                        repair(i);
                    }
                    boolean fast = (System.nanoTime() - start) / 1_000_000 < FAST_PHASE_MILLIS;
                    Thread.sleep(fast ? FAST_MILLIS : SLOW_MILLIS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ReflectiveOperationException | RuntimeException e) {
                err.println("fsil kernel launcher: the watchdog stopped: " + e);
            }
        }

        /** Replaces channel i's loop thread if it ended while still marked running. */
        synchronized void repair(int i) throws ReflectiveOperationException {
            Thread t = (Thread) loopFields[i].get(channels[i]);
            if (t == null || t.getState() != Thread.State.TERMINATED || !running.getBoolean(t)) {
                return;
            }
            Thread fresh = (Thread) newLoop.newInstance(t.getName(), sleep.getLong(t), body.get(t));
            running.setBoolean(fresh, true);   // before start(): the new thread cannot see false
            loopFields[i].set(channels[i], fresh);
            fresh.start();
            err.println("fsil kernel launcher: the " + LOOP_CHANNELS.get(i) + " channel's loop thread '" + t.getName()
                    + "' had ended while still marked running (a start-up race of rapaio-jupyter-kernel); "
                    + "replaced it");
        }

        /**
         * Waits until every loop thread has ended after a shutdown, repairing on the way: if all of them lost the
         * start-up race, the kernel's own joinUntilClose() returns at once, and without this the JVM would exit
         * (seen by a front end as "Kernel died before replying to kernel_info").
         */
        void joinLoops() throws ReflectiveOperationException, InterruptedException {
            while (true) {
                Thread alive = null;
                for (int i = 0; i < channels.length; i++) {
                    repair(i);
                    Thread t = (Thread) loopFields[i].get(channels[i]);
                    if (alive == null && t != null && t.isAlive()) {
                        alive = t;
                    }
                }
                if (alive == null) {
                    return;
                }
                alive.join(SLOW_MILLIS);
            }
        }
    }
}
