package loopbench.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;

/** The leak check itself can fail: a buffer dropped without release() is reported. */
class LeakCheckExtensionTest {

    @Test
    void aDroppedBufferIsReported() throws Exception {
        ByteBuf leaked = PooledByteBufAllocator.DEFAULT.directBuffer(16).writeInt(42);
        leaked = null; // dropped without release()
        LeakCheckExtension.collectGarbageAndPoll();
        // afterEach would fail this test; call the check here and expect that failure instead.
        var check = LeakCheckExtension.class.getDeclaredMethod("check", String.class);
        check.setAccessible(true);
        assertThrows(AssertionError.class, () -> {
            try {
                check.invoke(null, "aDroppedBufferIsReported");
            } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }
}
