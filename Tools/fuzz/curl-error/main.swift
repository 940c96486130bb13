import CourierFuzzSupport

FuzzTarget(name: "curl-error", property: curlErrorProperty).run()
