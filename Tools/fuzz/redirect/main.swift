import CourierFuzzSupport

FuzzTarget(name: "redirect", property: redirectProperty).run()
