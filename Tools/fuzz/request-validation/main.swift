import CourierFuzzSupport

FuzzTarget(name: "request-validation", property: requestValidationProperty).run()
