# The arm both scripts of this record run: proxy-64's line of profiles/claims.jmh at L7, reuse-server-thread, with
# 4 measured iterations of 2 s (to read the noise within a fork) instead of 1 of 3 s. Sourced, not run.
line=(-p layer=7 -p threadModel=reuse-server-thread -p transport=nio -p epollMode=default -p allocator=adaptive
      -p connections=64 -p bodySize=1024 -p maxContentLength=2000 -p l7Mode=aggregate -p backendPool=per-client
      -p ioThreads=2 -p originIoThreads=1 -p rate=0 -p clientTransport=epoll -p clientIoThreads=1
      -p connection=keep-alive -p topology=local -p link=none -p placement=pinned
      -wi 5 -w 4 -i 4 -r 2 -prof loopbench.bench.EndToEndProfiler)
