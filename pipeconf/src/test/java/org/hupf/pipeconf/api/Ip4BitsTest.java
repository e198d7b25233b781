package org.hupf.pipeconf.api;

import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.util.Random;

import static org.junit.Assert.assertEquals;

/** An address's bits as ONOS's own {@link Ip4Address#toInt()} gives them, sign bit and octet order included. */
public class Ip4BitsTest {

    @Test
    public void bitsAreTheAddressAsOneInt() {
        for (String a : new String[]{"0.0.0.0", "255.255.255.255", "128.0.0.0", "127.255.255.255", "10.0.0.1",
                                     "192.168.1.10", "1.2.3.4"}) {
            assertEquals(a, Ip4Address.valueOf(a).toInt(), Ip4Bits.of(Ip4Address.valueOf(a)));
        }
        Random random = new Random(7);
        for (int i = 0; i < 10_000; i++) {
            int bits = random.nextInt();
            assertEquals(bits, Ip4Bits.of(Ip4Address.valueOf(bits)));
        }
    }
}
