package loopbench.testing;

import io.netty.buffer.AbstractByteBuf;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fails a test when Netty's leak detector reports a ByteBuf that was garbage-collected without being
 * released. Registered for every test class (META-INF/services + junit-platform.properties); the tests run
 * with {@code -Dio.netty.leakDetection.level=paranoid}, so every buffer is tracked.
 *
 * <p>A leak is only seen once the buffer has been collected and another buffer is allocated, so after each
 * test class this forces a few GCs and allocations before checking; after each test it checks what has
 * been reported so far.
 */
public final class LeakCheckExtension implements AfterEachCallback, AfterAllCallback {
    private static final ConcurrentLinkedQueue<String> LEAKS = new ConcurrentLinkedQueue<>();

    static {
        if (ResourceLeakDetector.getLevel() != ResourceLeakDetector.Level.PARANOID) {
            throw new IllegalStateException("tests must run with -Dio.netty.leakDetection.level=paranoid, level is "
                    + ResourceLeakDetector.getLevel());
        }
        detector().setLeakListener((resourceType, records) -> LEAKS.add(resourceType + " leaked:\n" + records));
    }

    @SuppressWarnings("unchecked")
    private static ResourceLeakDetector<ByteBuf> detector() {
        try {
            Field f = AbstractByteBuf.class.getDeclaredField("leakDetector");
            f.setAccessible(true);
            return (ResourceLeakDetector<ByteBuf>) f.get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach Netty's ByteBuf leak detector", e);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        check(context.getDisplayName());
    }

    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException {
        collectGarbageAndPoll();
        check(context.getDisplayName());
    }

    /** Makes the detector look at everything collected so far. */
    public static void collectGarbageAndPoll() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(20);
            // Each tracked allocation first polls the detector's reference queue.
            PooledByteBufAllocator.DEFAULT.directBuffer(1).release();
            UnpooledByteBufAllocator.DEFAULT.heapBuffer(1).release();
        }
    }

    private static void check(String where) {
        List<String> found = new ArrayList<>();
        String leak;
        while ((leak = LEAKS.poll()) != null) {
            found.add(leak);
        }
        if (!found.isEmpty()) {
            fail(found.size() + " ByteBuf leak(s) reported by Netty during or before " + where + ":\n"
                    + String.join("\n----\n", found));
        }
    }
}
